"""The phones' services on 127.0.0.1 for each test that asks for them (standins.py): `apns` and
`fcm` start one and set the settings that reach it, as a deployment's environment would. Browsers'
push is off here (no VAPID keys), so a delivery goes to phones alone unless a test turns it on."""

import json

import pytest
import trustme
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.games.push_mobile.standins import FCM, PROJECT, apns_service


@pytest.fixture(scope="module")
def ca():
    return trustme.CA()


@pytest.fixture
def ca_file(ca, tmp_path, settings):
    path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    settings.PUSH_CA_FILE = str(path)
    return path


@pytest.fixture
def apns(ca, ca_file, tmp_path, settings):
    service, env = apns_service(ca, tmp_path)
    for name, value in env.items():
        setattr(settings, name, value)
    yield service
    service.close()


@pytest.fixture
def fcm(tmp_path, settings):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    email = f"push@{PROJECT}.iam.gserviceaccount.com"
    service = FCM(key.public_key(), email)
    path = tmp_path / "service-account.json"
    path.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": PROJECT,
                "private_key_id": "k1",
                "client_email": email,
                "client_id": "1",
                "token_uri": f"{service.origin}/token",
                "private_key": key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                ).decode(),
            }
        )
    )
    settings.FCM_CREDENTIALS_PATH, settings.FCM_ENDPOINT = str(path), service.origin
    yield service
    service.close()


@pytest.fixture(autouse=True)
def no_web_push(settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
