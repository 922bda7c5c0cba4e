"""The engine's core: state, board, rules, random numbers, decisions, events, frames and the formats."""
