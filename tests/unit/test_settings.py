"""Settings read from the environment: a knob that was renamed is refused by name, not ignored."""

from __future__ import annotations

import pytest
from convmem.settings import Settings


def test_the_memory_budget_is_read_from_its_variable():
    assert Settings.from_env({"CONVMEM_MEMORY_BUDGET_TOKENS": "700"}).memory_budget_tokens == 700
    assert Settings.from_env({}).memory_budget_tokens == 1000


def test_a_renamed_variable_is_refused_with_the_name_that_replaced_it():
    # (an operator who still sets the facts budget would otherwise get the default without a word)
    with pytest.raises(ValueError, match="CONVMEM_FACTS_BUDGET_TOKENS is no longer read: set CONVMEM_MEMORY_BUDGET_TOKENS"):
        Settings.from_env({"CONVMEM_FACTS_BUDGET_TOKENS": "800"})
