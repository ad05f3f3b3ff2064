from __future__ import annotations

from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from accounts.models import User
from games.errors import DomainError, Invalid


class UsernameTaken(DomainError):
    status, code = 409, "username_taken"


class BadCredentials(DomainError):
    status, code = 400, "bad_credentials"


@transaction.atomic
def register(username: str, password: str, email: str = "") -> tuple[User, str]:
    if User.objects.filter(username__iexact=username).exists():
        raise UsernameTaken(f"the username '{username}' is taken")
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as error:
        raise Invalid("password: " + " ".join(error.messages)) from None
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:
        raise UsernameTaken(f"the username '{username}' is taken") from None
    return candidate, Token.objects.create(user=candidate).key


def obtain_token(username: str, password: str) -> str:
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise BadCredentials("unknown username or wrong password")
    return Token.objects.get_or_create(user=user)[0].key
