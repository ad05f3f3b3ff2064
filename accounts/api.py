from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts import services


class RegisterIn(serializers.Serializer):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class RegisterOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class TokenOut(serializers.Serializer):
    token = serializers.CharField()


class MeOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    date_joined = serializers.DateTimeField()


class RegisterView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(request=RegisterIn, responses={201: RegisterOut}, summary="Create an account")
    def post(self, request):
        data = RegisterIn(data=request.data)
        data.is_valid(raise_exception=True)
        user, token = services.register(**data.validated_data)
        return Response({"id": user.pk, "username": user.username, "token": token},
                        status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(request=TokenIn, responses={200: TokenOut}, summary="Get your API token")
    def post(self, request):
        data = TokenIn(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"token": services.obtain_token(**data.validated_data)})


class MeView(APIView):
    @extend_schema(responses=MeOut, summary="Who the token belongs to")
    def get(self, request):
        return Response(MeOut(request.user).data)
