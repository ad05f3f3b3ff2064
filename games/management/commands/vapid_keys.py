"""`manage.py vapid_keys`: a new VAPID key pair for Web Push (RFC 8292), as environment lines.

py_vapid makes the P-256 key; the private key is printed as base64url of its raw 32 bytes and the
public key as base64url of the uncompressed point (what browsers take as applicationServerKey).
Nothing is stored: put the lines in the deployment's environment. A new pair invalidates every
browser subscription made with the old one (browsers must subscribe again), so make it once.
"""

import base64

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid02


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Generate a VAPID key pair for Web Push and print it as VAPID_PRIVATE_KEY / VAPID_PUBLIC_KEY lines."

    def handle(self, *args, **options):
        vapid = Vapid02()
        vapid.generate_keys()
        private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
        public = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"VAPID_PRIVATE_KEY={b64url(private)}\nVAPID_PUBLIC_KEY={b64url(public)}\n")
