"""The live table (issue 20): play-by-post pace, what each change announces (the Atom feed, the
outgoing webhook), over the same services as every front end. Nothing here serves HTTP: the web
table's live updates are `jdr.web.live`."""
