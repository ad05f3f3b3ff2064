"""APNs and FCM, each played by a service written here on 127.0.0.1, reached through the settings
a deployment sets (APNS_ENDPOINT, FCM_ENDPOINT, PUSH_CA_FILE); the fixtures that start them are in
conftest.py.

- APNs is HTTP/2 over TLS only, so its stand-in is an h2 server behind a certificate from a CA
  made for the test (trustme). It takes a notification only with a provider token (JWT, ES256)
  whose signature verifies with the public half of the key the test wrote as the .p8 file, whose
  kid is APNS_KEY_ID and iss APNS_TEAM_ID, on POST /3/device/<token> with the apns-topic,
  apns-push-type and apns-expiration headers; it then reads `aps.alert` as the phone would.
- FCM's stand-in answers both the OAuth2 token endpoint (the service-account key the test wrote
  names it as token_uri: google-auth posts a signed JWT assertion there, checked against the
  key's public half) and HTTP v1's messages:send, which takes a message only with a token it
  issued.

Neither stand-in is Apple's or Google's service: they check what this deployment sends against
the published protocols, not that Apple or Google would accept the credentials."""

import base64
import json
import socket
import ssl
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import h2.config
import h2.connection
import h2.events
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

TEAM, KEY_ID, TOPIC, PROJECT = "TEAM123456", "KEY1234567", "net.darkroom.app", "darkroom-test"
IPHONE, IPAD = "a" * 64, "0123456789abcdef" * 4


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwt_parts(token: str) -> tuple[dict, dict, bytes, bytes]:
    header, claims, signature = token.split(".")
    return (
        json.loads(unb64url(header)),
        json.loads(unb64url(claims)),
        f"{header}.{claims}".encode(),
        unb64url(signature),
    )


# ---------------------------------------------------------------------------------------------
# APNs on 127.0.0.1
# ---------------------------------------------------------------------------------------------
class APNs:
    """Apple's provider API as published: HTTP/2 only, TLS, a provider token per request."""

    def __init__(self, ca, public_key):
        self.public_key = public_key
        self.received, self.refused, self.tokens = [], [], set()
        self.answers: dict[str, tuple[int, str]] = {}  # device token -> (status, reason)
        self.hang = False
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert("127.0.0.1").configure_cert(self.context)
        self.context.set_alpn_protocols(["h2"])
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.origin = f"https://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _serve(self, raw):
        try:
            tls = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()
            return
        with tls:
            if tls.selected_alpn_protocol() != "h2":
                self.refused.append("not HTTP/2")
                return
            conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
            conn.initiate_connection()
            tls.sendall(conn.data_to_send())
            streams = {}
            while True:
                try:
                    data = tls.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        streams[event.stream_id] = [dict(event.headers), b""]
                    elif isinstance(event, h2.events.DataReceived):
                        streams[event.stream_id][1] += event.data
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        headers, body = streams.pop(event.stream_id)
                        status, reason = self.handle(headers, body)
                        if status is None:
                            continue  # hanging: no answer ever
                        answer = json.dumps({"reason": reason}).encode() if reason else b""
                        conn.send_headers(
                            event.stream_id,
                            [
                                (":status", str(status)),
                                ("apns-id", str(uuid.uuid4())),
                                ("content-length", str(len(answer))),
                            ],
                            end_stream=not answer,
                        )
                        if answer:
                            conn.send_data(event.stream_id, answer, end_stream=True)
                try:
                    tls.sendall(conn.data_to_send())
                except OSError:
                    return

    def verify(self, headers: dict) -> str:
        """'' if the request is what APNs takes (provider token, path, headers), else why not."""
        if headers.get(":method") != "POST" or not headers.get(":path", "").startswith("/3/device/"):
            return f"{headers.get(':method')} {headers.get(':path')}"
        scheme, _, token = headers.get("authorization", "").partition(" ")
        if scheme != "bearer":
            return "no provider token"
        header, claims, signed, raw = jwt_parts(token)
        if header.get("alg") != "ES256" or header.get("kid") != KEY_ID:
            return f"token header {header}"
        try:
            self.public_key.verify(
                encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                signed,
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature:
            return "bad signature"
        if claims.get("iss") != TEAM or not time.time() - 3600 < claims.get("iat", 0) <= time.time() + 60:
            return f"claims {claims}"
        self.tokens.add(token)
        if headers.get("apns-topic") != TOPIC or headers.get("apns-push-type") != "alert":
            return "topic or push type"
        if not int(headers.get("apns-expiration", "0")) > time.time():
            return "expiration"
        return ""

    def handle(self, headers: dict, body: bytes):
        problem = self.verify(headers)
        if problem:
            self.refused.append(problem)
            return 403, "InvalidProviderToken"
        device = headers[":path"].removeprefix("/3/device/")
        self.received.append((device, headers, json.loads(body)))
        if self.hang:
            return None, ""
        return self.answers.get(device, (200, ""))

    def close(self):
        self.listener.close()


def apns_service(ca, tmp_path) -> tuple[APNs, dict[str, str]]:
    """An APNs of the test's own behind `ca`'s certificate, and the settings that reach it (as a
    deployment's environment sets them; PUSH_CA_FILE aside, the CA's)."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / f"AuthKey_{KEY_ID}.p8"
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    service = APNs(ca, key.public_key())
    return service, {
        "APNS_AUTH_KEY_PATH": str(path),
        "APNS_KEY_ID": KEY_ID,
        "APNS_TEAM_ID": TEAM,
        "APNS_TOPIC": TOPIC,
        "APNS_ENDPOINT": service.origin,
    }


# ---------------------------------------------------------------------------------------------
# FCM (and Google's token endpoint) on 127.0.0.1
# ---------------------------------------------------------------------------------------------
class FCM:
    """HTTP v1's messages:send and the OAuth2 token endpoint a service-account key names."""

    def __init__(self, public_key, client_email):
        self.public_key, self.client_email = public_key, client_email
        self.received, self.refused, self.issued, self.revoked = [], [], [], set()
        self.answers: dict[str, tuple[int, dict]] = {}  # device token -> (status, JSON answer)
        self.token_hang = False
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path == "/token":
                    status, answer = service.token(body, self.headers)
                else:  # the path as sent: http.server folds a leading "//" into "/"
                    status, answer = service.send(self.requestline.split()[1], self.headers, body)
                if status is None:
                    time.sleep(30)  # a token endpoint that never answers (the client leaves first)
                    return
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def token(self, body: bytes, headers):
        """RFC 7523's JWT bearer grant, as Google's endpoint takes it from a service account."""
        if headers.get("Content-Type") != "application/x-www-form-urlencoded":  # RFC 6749 section 4.1.3
            return 400, {"error": "invalid_request"}
        form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
        if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            return 400, {"error": "unsupported_grant_type"}
        header, claims, signed, raw = jwt_parts(form["assertion"])
        try:
            self.public_key.verify(raw, signed, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            self.refused.append("assertion signature")
            return 400, {"error": "invalid_grant"}
        if (
            header.get("alg") != "RS256"
            or claims.get("iss") != self.client_email
            # google-auth names Google's token endpoint as the audience wherever token_uri
            # sends the assertion: that is what Google's endpoint checks.
            or claims.get("aud") != "https://oauth2.googleapis.com/token"
            or not time.time() - 60 <= claims.get("iat", 0) < claims.get("exp", 0) <= time.time() + 3660
            or "https://www.googleapis.com/auth/firebase.messaging" not in claims.get("scope", "").split()
        ):
            self.refused.append(f"assertion {header} {claims}")
            return 400, {"error": "invalid_grant"}
        if self.token_hang:
            return None, {}
        self.issued.append(f"ya29.local-{len(self.issued) + 1}")
        return 200, {"access_token": self.issued[-1], "expires_in": 3600, "token_type": "Bearer"}

    def send(self, path: str, headers, body: bytes):
        if path != f"/v1/projects/{PROJECT}/messages:send":
            return 404, {"error": {"code": 404, "status": "NOT_FOUND", "message": path}}
        if headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            return 400, {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "not JSON"}}
        scheme, _, bearer = headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer" or bearer not in self.issued or bearer in self.revoked:
            self.refused.append("no token of ours")
            return 401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}}
        message = json.loads(body)["message"]
        self.received.append(message)
        return self.answers.get(message["token"], (200, {"name": f"projects/{PROJECT}/messages/{len(self.received)}"}))

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def register(player, platform, token):
    answer = player.post("/api/v1/push/devices/", {"platform": platform, "token": token, "name": "phone"})
    assert answer.status_code == 201, answer.content
    return answer.json()
