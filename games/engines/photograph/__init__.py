"""Photograph (Wind the Film!): take, wind, photograph; hidden layout and hands."""

from .engine import PhotographEngine

ENGINE = PhotographEngine()
