import pytest
from convmem.domain.models import validate_id
from convmem.errors import InvalidInputError


@pytest.mark.parametrize("good", ["a", "s-1", "user.name:42_x", "A" * 128])
def test_ids_of_the_allowed_alphabet_pass(good):
    assert validate_id(good, "sessionId") == good


@pytest.mark.parametrize("bad", [
    "", "A" * 129, "has space", "../etc/passwd", "a/b", "a\n", "ѕession",  # Cyrillic s look-alike
    "ｓ1", "세션", "a%2e", None, 42,
])
def test_ids_outside_the_alphabet_are_refused(bad):
    with pytest.raises(InvalidInputError) as err:
        validate_id(bad, "sessionId")
    assert err.value.code == "invalid_sessionId"
