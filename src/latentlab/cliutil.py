"""Small helpers shared by the CLI modules."""

from __future__ import annotations

import argparse
import json


def add_params_arg(parser: argparse.ArgumentParser) -> None:
    """``--params JSON``: the rule's parameters (a JSON object, usually the study's config
    section plus ``run`` and ``seed``), passed as one shell-quoted string by the rule."""
    parser.add_argument(
        "--params", type=json.loads, default={}, help="JSON object of the step's parameters"
    )
