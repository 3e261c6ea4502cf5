"""Section 5, encryption: per-message encrypt / decrypt time and ciphertext overhead.

The service's own cipher (convmem.adapters.encryption.HierarchicalCipher: aws-encryption-sdk 4
with the MPL hierarchical keyring, AES-256-GCM-HKDF-SHA512 with key commitment, no signature)
against moto server, keyring warm (the branch key cached, as on a warm turn): REPS encrypts and
decrypts per message size, with the encryption context of a real message row. AWS calls during
the timed loops are counted (they must be 0). The cold costs are measured once beforehand: the
first encrypt of a new user (branch-key creation) and the first decrypt (the decrypt-side cache).

    .venv/bin/python -m bench.encryption [REPS] [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
import time

SAMPLES = {
    "short_en": "Hi, my order number is A-1042. Can you check it for me?",
    "typical_en": ("My order ZX-40123 needs a new delivery date, maybe the 14th; I decided on express delivery. "
                        "Also I wondered about the return policy for shoes bought on sale last week, thanks."),
    "korean": "안녕하세요! 주문 번호는 A-1042입니다. 배송 날짜를 다음 주 화요일로 바꾸고 싶어요. 그리고 세일 때 산 신발의 반품 규정도 궁금합니다. 확인해 주세요.",
    "long_en": "Here is the full context of my complaint about order ZX-40123. " * 32,
    "paste_en": "lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 360,
}


def run(reps: int = 300) -> dict:
    from bench.common import CallCounter, embedded_aws, fig, summary_ms

    counter = CallCounter()
    with embedded_aws() as aws:
        from convmem.adapters.encryption import HierarchicalCipher
        from convmem.settings import Settings

        settings = Settings.from_env(aws.function_env("ApiFunction"))
        # The text cache off: these are the SDK's own encrypt / decrypt times. (A warm turn's
        # re-read of a text this instance saw is a cache hit, ~0.01 ms; section 3 shows its effect.)
        cipher = HierarchicalCipher(kms_key_arn=settings.kms_key_arn, key_store_table=settings.key_store_table_name,
                                    cache_ttl_seconds=settings.key_cache_ttl_seconds, text_cache_entries=0)
        ids = {"short_ids": ("bench-user", "bench-session"),
               "uuid_ids": ("6f1c2a0e-9b7d-4e8a-a1f2-3c4d5e6f7a8b", "0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d")}
        cold: dict = {}
        for label, (user, session) in ids.items():
            with counter.phase(f"cold-encrypt-{label}") as t:
                start = time.perf_counter()
                ct = cipher.encrypt("hello", user_id=user, session_id=session, kind="msg", ref="1")
                enc_ms = (time.perf_counter() - start) * 1000
            with counter.phase(f"cold-decrypt-{label}") as d:
                start = time.perf_counter()
                cipher.decrypt(ct, user_id=user, session_id=session, kind="msg", ref="1")
                dec_ms = (time.perf_counter() - start) * 1000
            cold[label] = {"first_encrypt_ms": round(enc_ms, 2), "first_encrypt_calls": dict(t.calls),
                           "first_decrypt_ms": round(dec_ms, 2), "first_decrypt_calls": dict(d.calls)}
        # the SDK's one-time costs (imports, keyring build) are in the first label's figures only

        sizes: dict = {}
        with counter.phase("warm") as warm:
            for name, text in SAMPLES.items():
                plain = len(text.encode("utf-8"))
                user, session = ids["short_ids"]
                enc, dec, cts = [], [], []
                for i in range(reps):
                    ref = str(1000 + i)
                    start = time.perf_counter()
                    ct = cipher.encrypt(text, user_id=user, session_id=session, kind="msg", ref=ref)
                    enc.append((time.perf_counter() - start) * 1000)
                    start = time.perf_counter()
                    back = cipher.decrypt(ct, user_id=user, session_id=session, kind="msg", ref=ref)
                    dec.append((time.perf_counter() - start) * 1000)
                    assert back == text
                    cts.append(len(ct))
                uuid_ct = cipher.encrypt(text, user_id=ids["uuid_ids"][0], session_id=ids["uuid_ids"][1], kind="msg", ref="1000")
                sizes[name] = {
                    "plaintext_bytes": plain,
                    "ciphertext_bytes": int(statistics.median(cts)),
                    "overhead_bytes": int(statistics.median(cts)) - plain,
                    "overhead_bytes_uuid_ids": len(uuid_ct) - plain,
                    "encrypt_ms": summary_ms(enc),
                    "decrypt_ms": summary_ms(dec),
                }
        typical = sizes["typical_en"]
        return {
            "how": (f"HierarchicalCipher (the service's adapter) on moto server, branch key cached; {reps} encrypt + "
                    "decrypt pairs per message, encryption context {user, session, kind, ref} of a message row; "
                    "overhead = ciphertext bytes - UTF-8 plaintext bytes (short ids: 10 / 13 characters; "
                    "uuid ids: 36 / 36)"),
            "encrypt_ms_typical": fig(typical["encrypt_ms"]["median"], "ms", f"median, {typical['plaintext_bytes']}-byte English message"),
            "decrypt_ms_typical": fig(typical["decrypt_ms"]["median"], "ms", f"median, {typical['plaintext_bytes']}-byte English message"),
            "overhead_bytes": fig(typical["overhead_bytes"], "bytes", "ciphertext - plaintext, short ids: header with the "
                                  "stored encryption context, IV, tag; the same for every message up to one 4 KB frame "
                                  "(by_size shows larger ones)"),
            "overhead_bytes_uuid_ids": fig(typical["overhead_bytes_uuid_ids"], "bytes", "the same with 36-character user and session ids"),
            "by_size": sizes,
            "cold": cold,
            "aws_calls_warm": fig(sum(warm.calls.values()), "calls", f"AWS calls over the {reps * 2 * len(SAMPLES)} warm operations",
                                  goal="0", met=sum(warm.calls.values()) == 0),
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("reps", nargs="?", type=int, default=300)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    result = run(args.reps)
    from bench.common import emit

    emit(result, args.out)


if __name__ == "__main__":
    main()
