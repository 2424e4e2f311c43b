"""The campaign journal: every roll and fight action, hash-chained, verifiable offline.

Pure pieces here (`entries`, `verify`, `luck`); `service` writes entries through the store.
"""
