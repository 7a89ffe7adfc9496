"""The pure rules core: dice, pools and outcomes. No I/O, no textual, no clock."""
