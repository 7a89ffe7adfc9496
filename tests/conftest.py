"""Shared fixtures: kept minimal and generic."""

from __future__ import annotations

import pytest

from polku.session.demo import fixed_clock


@pytest.fixture
def clock():
    """A reproducible clock: one minute per call from 2026-11-28T18:00Z."""
    return fixed_clock()
