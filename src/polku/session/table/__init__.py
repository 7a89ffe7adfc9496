"""The table: what happens to the characters in play, as tracker command families and their reading
helpers. ``combat`` (turns, passes, initiative), ``damage`` (damage and harm from a roll,
``tracker.damage``), ``roster`` (NPC templates, groups, copies, saved pools, ``tracker.roster``) and
``gear`` (weapons and armour on a sheet). A family sees the tracker only through the protocols in
``session/host.py``; the table may use ``session/rolls`` and the core below it, never the players'
side or the review (tests/test_layer_contract.py)."""
