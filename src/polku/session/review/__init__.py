"""The review: reading a finished or running session back. ``stats`` (the dice and the odds they
had), ``replay`` (the state at any event, scenes) and ``export`` (the report, Markdown or HTML,
the players' or the GM's). It reads the tracker and the core; of the players' side only the public
projection (``players.public``), so a players' report is the players' view
(tests/test_layer_contract.py)."""
