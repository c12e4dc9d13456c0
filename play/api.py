"""The JSON API for cases and tables. Thin: serializers check shapes, services write,
selectors read. Everything game-related a client receives is built by
`selectors.table_view`, i.e. from the engine's `view` for the requesting player."""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cases import selectors as case_selectors
from games import GAMES
from games.base import BOT_LEVELS, DEFAULT_BOT_LEVEL
from holmes_site.api_errors import error_response
from holmes_site.throttling import JoinThrottle

from . import leaving, moves, selectors, services
from .api_schema import example_actions
from .models import Colour, Notebook, TableStatus
from .moves import Outcome
from .pushed_views import table_body

# --- Cases ------------------------------------------------------------------------------


class CaseOutput(serializers.Serializer):
    slug = serializers.CharField(source="case.slug")
    title = serializers.CharField()
    difficulty = serializers.IntegerField()
    language = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()


class CaseDetailOutput(CaseOutput):
    introduction = serializers.CharField()
    special_rules = serializers.CharField()
    questions = serializers.SerializerMethodField()

    def get_questions(self, version) -> list[dict]:
        return [{"id": q.key, "ask": q.ask, "kind": q.kind} for q in version.questions.all()]


class CaseListApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=CaseOutput(many=True), summary="Published cases")
    def get(self, request):
        versions = case_selectors.published_versions()
        return Response(CaseOutput(versions, many=True).data)


class CaseDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=CaseDetailOutput, summary="The public parts of a published case")
    def get(self, request, slug):
        version = case_selectors.published_version_for_slug(slug)
        return Response(CaseDetailOutput(version).data)


# --- Tables -----------------------------------------------------------------------------

MIN_TURN_TIMER_SECONDS, MAX_TURN_TIMER_SECONDS = services.TIMER_RANGE


class TableSummaryOutput(serializers.Serializer):
    """A line of My tables (selectors.ListedTable): the table's public facts and where
    its game stands for you, as the My tables page shows them."""

    id = serializers.IntegerField(source="table.id")
    game = serializers.CharField(
        source="table.engine", help_text="The game's name (GET /api/games/)."
    )
    case = serializers.CharField(
        source="table.case_version.case.slug",
        allow_null=True,
        default=None,
        help_text="Case games only.",
    )
    title = serializers.CharField(source="table.summary.title", default="")
    status = serializers.ChoiceField(source="table.status", choices=TableStatus.choices)
    version = serializers.IntegerField(source="table.version")
    host = serializers.CharField(source="table.host.public_name")
    created_at = serializers.DateTimeField(source="table.created_at")
    your_seat = serializers.IntegerField(allow_null=True, help_text="Your seat's number.")
    your_turn = serializers.BooleanField(help_text="Whether the game waits for your move.")
    waiting_for = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats the game waits for (yours among them when it is your turn); "
        "empty unless the game is being played.",
    )
    waiting_names = serializers.ListField(
        child=serializers.CharField(),
        help_text="The names of the other players the game waits for.",
    )
    round = serializers.IntegerField(
        allow_null=True, help_text="The round, in a game that counts rounds, while it is played."
    )


TABLE_VIEW = inline_serializer(
    "TableView",
    fields={
        "table": serializers.IntegerField(),
        "version": serializers.IntegerField(),
        "status": serializers.ChoiceField(choices=TableStatus.choices),
        "engine": serializers.CharField(help_text="The game's name (GET /api/games/)."),
        "title": serializers.CharField(),
        "invite_code": serializers.CharField(required=False),
        "case": serializers.DictField(allow_null=True, help_text="Case games: slug and title."),
        "case_version": serializers.IntegerField(allow_null=True),
        "seats": serializers.ListField(
            child=serializers.DictField(),
            help_text="Each seat's number, name, colour, bot (a computer player or not) and "
            "level (a computer player's strength: easy, normal or expert; null for a person).",
        ),
        "you": serializers.DictField(),
        "deadline_at": serializers.DateTimeField(
            allow_null=True, help_text="When the seats the game waits for run out of time."
        ),
        "seconds_left": serializers.IntegerField(allow_null=True),
        "outcome": serializers.DictField(allow_null=True, help_text="Once the game is over."),
        "game": serializers.DictField(allow_null=True, help_text="The rules' view for you."),
        "solution": serializers.DictField(
            allow_null=True, required=False, help_text="Case games, once you may read it."
        ),
        "solution_withheld": serializers.BooleanField(
            required=False,
            help_text="Case games: the solution waits while you play this case at another "
            "table, and so does every answer and verdict in game.",
        ),
        "notebook": serializers.CharField(allow_null=True),
    },
)


def table_view_response(membership, http_status=status.HTTP_200_OK, **extra) -> Response:
    body = table_body(membership)  # as a socket that asked for views is sent it
    body.update(extra)
    response = Response(body, status=http_status)
    response["ETag"] = f'"{membership.table.version}"'
    response["Cache-Control"] = "private, no-cache"
    return response


class TableListApi(APIView):
    permission_classes = [IsAuthenticated]

    # Every nested serializer is called Input: each needs its own component name, or the
    # schema documents one request body for all of them.
    @extend_schema_serializer(component_name="TableCreateInput")
    class Input(serializers.Serializer):
        game = serializers.CharField(
            max_length=40,
            required=False,
            help_text="GET /api/games/ lists them; left out with a case, the case game.",
        )
        case = serializers.SlugField(
            required=False, help_text="The slug of a published case, for a game that needs one."
        )
        options = serializers.DictField(
            required=False, help_text="The game's table options, by name (GET /api/games/)."
        )
        # At most a week: beyond 2**31 - 1, PostgreSQL's integer column refused it (a 500).
        turn_timer_seconds = serializers.IntegerField(
            min_value=MIN_TURN_TIMER_SECONDS, max_value=MAX_TURN_TIMER_SECONDS, required=False
        )

    @extend_schema(
        responses=TableSummaryOutput(many=True),
        summary="My tables",
        description="Your newest 100 tables, those waiting for your move first.",
    )
    def get(self, request):
        tables = selectors.my_tables(user=request.user)
        return Response(TableSummaryOutput(tables, many=True).data)

    @extend_schema(request=Input, responses={201: TABLE_VIEW}, summary="Create a table")
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        slug = data.validated_data.get("case")
        version = case_selectors.published_version_for_slug(slug) if slug else None
        table = services.table_create(
            host=request.user,
            game=data.validated_data.get("game"),
            case_version=version,
            options=data.validated_data.get("options"),
            turn_timer_seconds=data.validated_data.get("turn_timer_seconds"),
        )
        membership = selectors.membership_for(table_id=table.pk, user=request.user)
        return table_view_response(membership, status.HTTP_201_CREATED)


class GameListApi(APIView):
    permission_classes = [AllowAny]

    class Output(serializers.Serializer):
        name = serializers.CharField()
        title = serializers.CharField()
        min_players = serializers.IntegerField()
        max_players = serializers.IntegerField()
        needs_case = serializers.BooleanField()
        has_bot = serializers.SerializerMethodField()
        bot_levels = serializers.SerializerMethodField(
            help_text="The computer players' strengths the game offers, weakest first "
            "(easy, normal, expert); empty for a game without them."
        )
        options = serializers.SerializerMethodField()

        def get_has_bot(self, game) -> bool:
            return game.bot is not None

        def get_bot_levels(self, game) -> list[str]:
            return list(game.bots)

        def get_options(self, game) -> list[dict]:
            return [
                {
                    "name": option.name,
                    "label": option.label,
                    "kind": option.kind,
                    "default": option.default,
                    "choices": [value for value, _ in option.choices] or None,
                    "minimum": option.minimum,
                    "maximum": option.maximum,
                }
                for option in game.options
            ]

    @extend_schema(
        responses=extend_schema_serializer(component_name="GameOutput")(Output)(many=True),
        summary="The games a table may play, with their options",
    )
    def get(self, request):
        return Response(self.Output(GAMES.values(), many=True).data)


class TableBotApi(APIView):
    permission_classes = [IsAuthenticated]

    class Input(serializers.Serializer):
        level = serializers.ChoiceField(
            choices=BOT_LEVELS,
            default=DEFAULT_BOT_LEVEL,
            help_text="How strong the computer player is: one of the game's bot_levels "
            "(GET /api/games/); normal when left out.",
            error_messages={
                "invalid_choice": "A computer player is easy, normal or expert; "
                '"{input}" is none of these.'
            },
        )

    @extend_schema(
        request=extend_schema_serializer(component_name="TableBotInput")(Input),
        responses={201: TABLE_VIEW},
        summary="Seat a computer player",
        description="The host seats a computer player of the strength asked (normal unless "
        "told) in the lobby; a strength the game does not offer is refused.",
    )
    def post(self, request, table_id):
        selectors.membership_for(table_id=table_id, user=request.user)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        services.seat_add_bot(
            table_id=table_id, user=request.user, level=data.validated_data["level"]
        )
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        return table_view_response(membership, status.HTTP_201_CREATED)


class TableBotDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    # A DELETE is documented as 204 unless told: this one answers 200, with the table.
    @extend_schema(request=None, responses={200: TABLE_VIEW}, summary="Remove a computer player")
    def delete(self, request, table_id, number):
        selectors.membership_for(table_id=table_id, user=request.user)
        services.seat_remove_bot(table_id=table_id, user=request.user, number=number)
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        return table_view_response(membership)


class TableJoinApi(APIView):
    permission_classes = [IsAuthenticated]
    # The invite code is the only key to a table: throttled, so it cannot be guessed.
    throttle_classes = [JoinThrottle]  # one budget with the web's joining

    @extend_schema_serializer(component_name="TableJoinInput")
    class Input(serializers.Serializer):
        invite_code = serializers.CharField(max_length=32)

    @extend_schema(request=Input, responses=TABLE_VIEW, summary="Join a table by invite code")
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        seat = services.table_join(
            invite_code=data.validated_data["invite_code"], user=request.user
        )
        membership = selectors.membership_for(table_id=seat.table_id, user=request.user)
        return table_view_response(membership)


class TableDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: TABLE_VIEW, 304: None},
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        summary="The table as you may see it",
        description="ETag is the table version: send it back in If-None-Match to get 304 "
        "while nothing changed.",
    )
    def get(self, request, table_id):
        membership = selectors.api_membership_for(table_id=table_id, user=request.user)
        etag = f'"{membership.table.version}"'
        if request.headers.get("If-None-Match") == etag:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
            response["ETag"] = etag
            return response
        return table_view_response(membership)


class TableLeaveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, summary="Leave a table in its lobby")
    def post(self, request, table_id):
        selectors.membership_for(table_id=table_id, user=request.user)
        services.table_leave(table_id=table_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableSeatLeaveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None},
        summary="Leave a started game: a computer player takes your seat",
    )
    def post(self, request, table_id):
        selectors.membership_for(table_id=table_id, user=request.user)
        leaving.seat_leave(table_id=table_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableSeatRemoveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses=TABLE_VIEW,
        summary="Remove a player who has been away (host only): a computer takes the seat",
    )
    def post(self, request, table_id, number):
        selectors.membership_for(table_id=table_id, user=request.user)
        leaving.seat_remove(table_id=table_id, host=request.user, number=number)
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        return table_view_response(membership)


class TableStartApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=TABLE_VIEW, summary="Start the game (host only)")
    def post(self, request, table_id):
        selectors.membership_for(table_id=table_id, user=request.user)
        services.table_start(table_id=table_id, user=request.user)
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        return table_view_response(membership)


class TableColourApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ColourInput")
    class Input(serializers.Serializer):
        colour = serializers.ChoiceField(choices=Colour.choices)

    @extend_schema(request=Input, responses=TABLE_VIEW, summary="Choose your colour")
    def post(self, request, table_id):
        selectors.membership_for(table_id=table_id, user=request.user)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        services.seat_choose_colour(
            table_id=table_id, user=request.user, colour=data.validated_data["colour"]
        )
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        return table_view_response(membership)


def action_examples() -> list[OpenApiExample]:
    """One example of each action of each game: the game's own, where its rules document
    their actions (ACTIONS), else one seen in play (play.api_schema)."""
    examples = []
    for name in sorted(GAMES):
        documented = getattr(GAMES[name].rules, "ACTIONS", {})
        seen = example_actions(name)
        for action_type in sorted(set(documented) | set(seen)):
            spec = documented.get(action_type) or {
                "description": f"{GAMES[name].title}: {action_type}.",
                "example": seen[action_type],
            }
            examples.append(
                OpenApiExample(
                    f"{name}: {action_type}",
                    description=spec["description"],
                    value={
                        "action": spec["example"],
                        "expected_version": 12,
                        "idempotency_key": "k-7f3a",
                    },
                    request_only=True,
                )
            )
    return examples


class ActionSchema(AutoSchema):
    """The move endpoint's examples, worked out when the schema is built. They come from
    playing each game a little (play.api_schema), which took over 5 s: done as the class
    was defined, every web worker paid it on importing the URLconf."""

    def get_examples(self) -> list[OpenApiExample]:
        return action_examples()


class TableActionApi(APIView):
    permission_classes = [IsAuthenticated]
    schema = ActionSchema()
    # Answers are counted by the move's front door (play/moves.py), whichever road they
    # take: no throttle class here.

    @extend_schema_serializer(component_name="ActionInput")
    class Input(serializers.Serializer):
        action = serializers.DictField(help_text='The move, e.g. {"type": "visit", ...}')
        expected_version = serializers.IntegerField(
            min_value=0, help_text="The table version your move is based on."
        )
        idempotency_key = serializers.CharField(
            max_length=services.MAX_IDEMPOTENCY_KEY_CHARACTERS,
            error_messages={"max_length": services.KEY_TOO_LONG},
            required=False,
            help_text="Any unique string (or the Idempotency-Key header; either at most "
            f"{services.MAX_IDEMPOTENCY_KEY_CHARACTERS} characters, a longer one is refused "
            "with 400); a retried request with it returns the first result, and another move "
            "under it is refused (422).",
        )

    @extend_schema(
        request=Input,
        responses={200: TABLE_VIEW, 400: None, 409: None, 422: None, 429: None},
        summary="Make a move",
        description="200: the move was applied; the body is your new view. 400: the rules "
        "refuse it (error.code and a sentence; error.details names what the sentence is "
        "about, when the rules say: a blank answer's question). 409: the table moved on since "
        "expected_version; fetch it and decide again. 422: the idempotency key was sent "
        "before with another move.",
    )
    def post(self, request, table_id):
        move = action_input(request.data)
        outcome = moves.move_make(
            user=request.user,
            table_id=table_id,
            action=move["action"],
            expected_version=move["expected_version"],
            idempotency_key=move.get("idempotency_key") or request.headers.get("Idempotency-Key"),
        )
        return move_response(request, table_id, outcome)


# A refused move answers 400, but for a key sent again with another move: 422.
REFUSAL_STATUS = {services.IdempotencyKeyReused.code: status.HTTP_422_UNPROCESSABLE_ENTITY}


def move_response(request, table_id: int, outcome: moves.MoveOutcome) -> Response:
    """The API's answer to a move (play/moves.py): your new view, or the one error shape."""
    if outcome.made:
        return table_view_response(outcome.membership, replayed=outcome.kind == Outcome.REPLAYED)
    if outcome.kind == Outcome.THROTTLED:
        raise Throttled(wait=outcome.wait)  # 429, with Retry-After (holmes_site.api_errors)
    if outcome.kind == Outcome.NOT_SEATED:
        # 404 for a table the user has no part in, as for every table endpoint.
        selectors.api_membership_for(table_id=table_id, user=request.user, state=False)
        return error_response("not_a_player", moves.SPECTATORS_CANNOT_MOVE, 403)
    if outcome.kind == Outcome.STALE:
        return error_response(
            outcome.code, outcome.sentence, status.HTTP_409_CONFLICT, outcome.details
        )
    # details: what the refusal is about, when it says (a blank answer's question).
    http_status = REFUSAL_STATUS.get(outcome.code, status.HTTP_400_BAD_REQUEST)
    return error_response(outcome.code, outcome.sentence, http_status, outcome.details)


def action_input(data) -> dict:
    """A move's input, as `TableActionApi.Input` validates it.

    The move is the site's most frequent request, and a DRF serializer deep-copies its
    declared fields for every instance: 64 of the 100 µs it takes to check these three
    values. So an input in the plain form every client sends (a JSON object with an
    object, a whole number and, maybe, a printable ASCII key that needs no trimming) is
    taken as it is, which is exactly what the serializer would return. Anything else
    goes through the serializer, for its checks and its error messages.
    tests/play/test_api_input.py holds the two to the same answers.
    """
    if isinstance(data, dict):
        action, version = data.get("action"), data.get("expected_version")
        key = data.get("idempotency_key", "absent")
        if (
            isinstance(action, dict)
            and type(version) is int
            and version >= 0
            and type(key) is str
            and 0 < len(key) <= services.MAX_IDEMPOTENCY_KEY_CHARACTERS
            and key.isascii()
            and key.isprintable()  # nothing the serializer refuses: NUL, surrogates
            and key == key.strip()
        ):
            move = {"action": dict(action), "expected_version": version}
            if "idempotency_key" in data:
                move["idempotency_key"] = key
            return move
    serializer = TableActionApi.Input(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class EventOutput(serializers.Serializer):
    sequence = serializers.IntegerField()
    table_version = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    created_at = serializers.DateTimeField()


class TableEventsApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="Only events after this sequence")],
        responses=EventOutput(many=True),
        summary="The table's history as you may see it",
    )
    def get(self, request, table_id):
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        try:
            after = max(0, int(request.query_params.get("after", 0)))
        except ValueError:
            return error_response("invalid", "after: a whole number is required.", 400)
        events = selectors.visible_events(membership=membership, after=after)
        return Response(EventOutput(events, many=True).data)


class NotebookApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="NotebookInput")
    class Input(serializers.Serializer):
        text = serializers.CharField(
            allow_blank=True, max_length=50_000, trim_whitespace=False, required=False
        )
        marks = serializers.DictField(
            required=False, help_text="Your marks on the game's note sheet (a grid)."
        )

    NOTEBOOK = inline_serializer(
        "Notebook", {"text": serializers.CharField(), "marks": serializers.DictField()}
    )

    @extend_schema(responses=NOTEBOOK)
    def get(self, request, table_id):
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        if membership.seat is None:
            return error_response("not_a_player", "Only players keep a notebook.", 403)
        notebook = Notebook.objects.filter(seat=membership.seat).first()
        return Response(
            {"text": notebook.text if notebook else "", "marks": notebook.marks if notebook else {}}
        )

    @extend_schema(request=Input, responses=NOTEBOOK)
    def put(self, request, table_id):
        membership = selectors.membership_for(table_id=table_id, user=request.user)
        if membership.seat is None:
            return error_response("not_a_player", "Only players keep a notebook.", 403)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        notebook = services.notebook_write(
            table_id=table_id,
            user=request.user,
            text=data.validated_data.get("text"),
            marks=data.validated_data.get("marks"),
        )
        return Response({"text": notebook.text, "marks": notebook.marks})
