"""Fills web/node_modules from npm's local cache (~/.npm/_cacache) by the integrity hashes in
package-lock.json, for machines without network where ``npm ci --offline`` stops on a
registry listing it never cached. Packages for other platforms are skipped when absent."""

import base64
import json
import subprocess
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parent
CACHE = Path.home() / ".npm" / "_cacache" / "content-v2"


def main() -> int:
    lock = json.loads((WEB / "package-lock.json").read_text())
    missing = []
    for where, meta in lock["packages"].items():
        if not where:
            continue
        algorithm, digest = meta["integrity"].split("-", 1)
        hexed = base64.b64decode(digest).hex()
        tarball = CACHE / algorithm / hexed[:2] / hexed[2:4] / hexed[4:]
        if not tarball.exists():
            if not meta.get("optional"):
                missing.append(where)
            continue
        (WEB / where).mkdir(parents=True, exist_ok=True)
        subprocess.run(["tar", "-xzf", str(tarball), "-C", str(WEB / where),
                        "--strip-components=1"], check=True)
    for where in missing:
        print(f"not in npm's cache: {where}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
