"""The terminal front end: the ``mastermind`` command (play, crack, score, evaluate).

The game loops take an input callable and an output stream, so a whole session can be
scripted in tests; :func:`cli.main.main` wires them to the real terminal.
"""
