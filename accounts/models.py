from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """Our own user model from the first migration, as Django advises for new projects."""

    email = models.EmailField("email address", blank=True)
