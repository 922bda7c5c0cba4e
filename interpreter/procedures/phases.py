"""The three phases of a round (R1.3), each in its own module."""

from .action import action_phase
from .planning import planning_phase
from .westeros import westeros_phase

__all__ = ["action_phase", "planning_phase", "westeros_phase"]
