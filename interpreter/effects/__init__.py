"""The effect interpreter (docs/effects.md): the evaluator of compiled effects and the primitives' handlers.
Importing the package registers every handler."""

from . import objective_exchange, objectives, pregame, primitives  # noqa: F401  (registers the handlers)
from .evaluator import *  # noqa: F401,F403
from .evaluator import _nothing  # noqa: F401
from .primitives import *  # noqa: F401,F403
