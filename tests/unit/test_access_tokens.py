import pytest
from convmem.domain.access_tokens import sign_token, verify_token
from convmem.errors import UnauthorizedError

KEY = b"k" * 32


def test_a_signed_token_verifies_to_its_user():
    token = sign_token("alice", 2_000, KEY)
    assert verify_token(token, KEY, now=1_000).user_id == "alice"


def test_an_expired_token_is_refused():
    token = sign_token("alice", 2_000, KEY)
    with pytest.raises(UnauthorizedError) as err:
        verify_token(token, KEY, now=2_000)
    assert err.value.code == "token_expired"


@pytest.mark.parametrize("mutate", [
    lambda t: t[:-2] + ("A" if t[-2] != "A" else "B") + t[-1],  # signature changed
    lambda t: "x" + t[1:],  # payload changed
    lambda t: t.split(".")[0],  # no signature
    lambda t: t + ".extra",
    lambda t: "",
    lambda t: "한국어.토큰",
])
def test_a_tampered_or_malformed_token_is_refused(mutate):
    token = sign_token("alice", 2_000, KEY)
    with pytest.raises(UnauthorizedError):
        verify_token(mutate(token), KEY, now=1_000)


def test_a_token_signed_with_another_key_is_refused():
    token = sign_token("alice", 2_000, b"other-key")
    with pytest.raises(UnauthorizedError):
        verify_token(token, KEY, now=1_000)


def test_a_forged_payload_with_a_valid_shape_is_refused():
    # Re-sign alice's payload as bob without the key: the MAC no longer matches.
    import base64
    import json

    token = sign_token("alice", 2_000, KEY)
    body = base64.urlsafe_b64encode(json.dumps({"v": 1, "sub": "bob", "exp": 2000}).encode()).rstrip(b"=").decode()
    with pytest.raises(UnauthorizedError):
        verify_token(body + "." + token.split(".")[1], KEY, now=1_000)
