"""The command line: parse input, call the pure core, render the result."""
