"""The players' side: everything a player may see or do, built from the session file. ``public``
(the players' projection: secrets never leave it), ``seats`` (a player's seat: offers, request
files, the GM picking them up), ``watching`` (told of a save by inotify), ``verify`` (anyone
recomputing the program's dice) and ``transcript`` (the players' dice transcript ``verify`` reads). It reads the tracker, the table and the core; nothing below it
imports it, and the review only takes the public projection (tests/test_layer_contract.py)."""
