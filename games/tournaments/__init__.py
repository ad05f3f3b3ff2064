"""Tournament pairing, scoring and standings: pure functions, like the engines (no Django, no I/O).

Everything here is a function of the players (in their initial order, strongest first), the history
of the rounds played (`standings.Table`, `standings.Bye`) and a seed, so anyone holding those can
re-run a tournament's pairings and standings and get the same answer (docs/tournaments.md).

- `standings`: scores (points by place, byes), the tie-breaks and the standings in their order.
- `pairing`: Swiss (2-player and tables), round robin (2-player and tables) and knockout.
"""
