"""jdr on Discord: slash commands answered over HTTP interactions, on the same services as the web and CLI."""
