"""Account endpoints of the API: a token for scripts, and notifications."""

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from holmes_site.api_errors import error_response
from holmes_site.throttling import LoginThrottle, login_succeeded

from . import services
from .models import Notification

MAX_ID = 2**63 - 1  # beyond a 64-bit id, SQLite cannot even compare (OverflowError)
# Ids marked read in one request. Each is a parameter of the query, and PostgreSQL takes
# at most 65,535: 100,000 ids failed there, and were answered as a database down (503).
MAX_IDS_READ = 1_000


class TokenApi(APIView):
    """Exchange a username and password for a new API token (send it as `Token <key>`).
    Each call issues another; each lasts settings.API_TOKEN_DAYS, and a new password ends
    them all. The owner lists and revokes them on their profile page."""

    permission_classes = [AllowAny]
    authentication_classes = []
    # One budget with the web log-in: failures, per address and per account
    # (holmes_site/throttling).
    throttle_classes = [LoginThrottle]

    @extend_schema_serializer(component_name="TokenInput")
    class Input(serializers.Serializer):
        username = serializers.CharField()
        password = serializers.CharField(style={"input_type": "password"})

    @extend_schema(
        request=Input,
        responses=inline_serializer(
            "TokenOut",
            {
                "token": serializers.CharField(help_text="The key: it is shown only here."),
                "expires_at": serializers.DateTimeField(
                    help_text="When it stops working; get a new one before then."
                ),
            },
        ),
        auth=[],
        summary="Get a new API token",
    )
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None:
            return error_response(
                "bad_credentials", "That username and password do not match.", 400
            )
        login_succeeded(request)  # only failed log-ins count against the limit
        token, key = services.api_token_create(user=user)
        expires_at = serializers.DateTimeField().to_representation(token.expires_at)
        return Response({"token": key, "expires_at": expires_at})


class NotificationOutput(serializers.ModelSerializer):
    class Meta:
        model = Notification
        fields = ["id", "kind", "message", "url", "created_at", "read_at"]


class NotificationListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=inline_serializer(
            "Notifications",
            {"unread": serializers.IntegerField(), "results": NotificationOutput(many=True)},
        ),
        summary="Your notifications, newest first, with the unread count",
    )
    def get(self, request):
        notifications = Notification.objects.filter(user=request.user)
        unread = notifications.filter(read_at__isnull=True).count()
        latest = NotificationOutput(notifications[:50], many=True).data
        return Response({"unread": unread, "results": latest})


class NotificationReadApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="NotificationReadInput")
    class Input(serializers.Serializer):
        ids = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
            required=False,
            max_length=MAX_IDS_READ,
            error_messages={
                "max_length": f"Mark at most {MAX_IDS_READ:,} notifications read in one "
                "request: send the others in another."
            },
            help_text=f"At most {MAX_IDS_READ:,}; without ids, every notification is marked.",
        )

    @extend_schema(request=Input, responses={204: None}, summary="Mark notifications read")
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        services.notifications_mark_read(user=request.user, ids=data.validated_data.get("ids"))
        return Response(status=status.HTTP_204_NO_CONTENT)
