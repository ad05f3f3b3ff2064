"""Run the proxy of deploy/nginx.conf.template in the foreground (`make run`, the benchmarks).

Fills the template's ${NAME}s from the environment (PORT, WEB_UPSTREAM, LIVE_UPSTREAM; the
upstreams default to 127.0.0.1:WEB_PORT and 127.0.0.1:LIVE_PORT), writes it into a directory of
its own with nginx's temporary files (its workers can write them, whatever user they run as), and
becomes nginx (exec: signals reach nginx itself).
Under compose the nginx image fills the same template itself.
"""

import os
import shutil
import string
import sys
import tempfile
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf.template"


def values(env) -> dict[str, str]:
    return {
        "PORT": env.get("PORT", "8000"),
        "WEB_UPSTREAM": env.get("WEB_UPSTREAM", f"127.0.0.1:{env.get('WEB_PORT', '8001')}"),
        "LIVE_UPSTREAM": env.get("LIVE_UPSTREAM", f"127.0.0.1:{env.get('LIVE_PORT', '8002')}"),
    }


def render(env) -> str:
    # safe_substitute: nginx's own $variables ($http_host, ...) are left as they are.
    return string.Template(TEMPLATE.read_text()).safe_substitute(values(env))


def main() -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    prefix = Path(tempfile.mkdtemp(prefix="darkroom-proxy-"))
    # mkdtemp's directory is its owner's alone; nginx started as root runs its workers as
    # another user (nobody), who must reach the temporary paths in it: a request body past the
    # 16 KiB buffer is written there, and without them it would get a 500. Searchable by all,
    # listable by none.
    prefix.chmod(0o711)
    (prefix / "nginx.conf").write_text(render(os.environ))
    sys.stdout.flush()
    os.execv(nginx, [nginx, "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"])


if __name__ == "__main__":
    main()
