"""The game's procedure: the round and its phases (planning, action, combat, westeros, mustering)."""
