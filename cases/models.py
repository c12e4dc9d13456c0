"""The case domain.

A `Case` is the lasting identity (slug, author). Its content lives in numbered
`CaseVersion`s: a published version is never edited in place, so a table pins the version
it started with and an author's next edit becomes a new draft version. Questions, location
cards and zones belong to a version.

The models hold data and database rules only; writes go through `cases/services.py`,
reads through `cases/selectors.py`.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Icon(models.TextChoices):
    POLICE = "police", "Police token"
    CALL_OFF = "call_off", "Call-off token"
    LOCKPICK = "lockpick", "Lockpick"
    CARRIAGES = "carriages", "Carriages"
    NO_WATSON = "no_watson", "No Watson"
    NO_POLICE = "no_police", "No police"
    LOCKED = "locked", "Locked"


class AnswerKind(models.TextChoices):
    PERSON = "person", "Person (full name)"
    PLACE = "place", "Place"
    TEXT = "text", "Text"
    NUMBER = "number", "Number"
    YES_NO = "yes_no", "Yes or no"


class VersionStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    IN_REVIEW = "in_review", "In review"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    PUBLISHED = "published", "Published"
    ARCHIVED = "archived", "Archived"


DEFAULT_ICON_CARRIAGES = 2
MAX_PLAYERS = 7
MAX_DIFFICULTY = 5


class Case(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cases",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class CaseVersion(models.Model):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    status = models.CharField(
        max_length=20, choices=VersionStatus.choices, default=VersionStatus.DRAFT
    )
    format = models.PositiveSmallIntegerField(default=1)
    title = models.CharField(max_length=200)
    difficulty = models.PositiveSmallIntegerField(default=1)
    language = models.CharField(max_length=12, default="en")
    min_players = models.PositiveSmallIntegerField(default=1)
    max_players = models.PositiveSmallIntegerField(default=MAX_PLAYERS)
    introduction = models.TextField()
    special_rules = models.TextField(blank=True)
    solution = models.TextField()
    # Overrides of the standard set-up; None means "the rules' default".
    start_carriages = models.PositiveSmallIntegerField(null=True, blank=True)
    start_police = models.PositiveSmallIntegerField(null=True, blank=True)
    start_call_off = models.PositiveSmallIntegerField(null=True, blank=True)
    start_lockpick = models.PositiveSmallIntegerField(null=True, blank=True)
    # Zones: empty start_zone means a one-zone case.
    start_zone = models.CharField(max_length=40, blank=True)
    travel_cost = models.PositiveSmallIntegerField(null=True, blank=True)
    # The front matter exactly as the author wrote it in a package, so that export gives
    # back their formatting and comments while the data it encodes is unchanged.
    source_front_matter = models.TextField(blank=True, editable=False)
    # Likewise the Markdown body of case.md (the three sections with their blank lines).
    source_body = models.TextField(blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["case__slug", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["case", "number"], name="case_version_number_unique"),
            models.UniqueConstraint(
                fields=["case"],
                condition=Q(status=VersionStatus.PUBLISHED),
                name="one_published_version_per_case",
            ),
            models.CheckConstraint(
                condition=Q(difficulty__lte=MAX_DIFFICULTY), name="difficulty_at_most_5"
            ),
            models.CheckConstraint(
                condition=Q(min_players__gte=1)
                & Q(max_players__lte=MAX_PLAYERS)
                & Q(min_players__lte=F("max_players")),
                name="players_between_1_and_7",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} (v{self.number}, {self.get_status_display().lower()})"

    @property
    def is_zoned(self) -> bool:
        return bool(self.start_zone)


class Zone(models.Model):
    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="zones")
    key = models.SlugField(max_length=40)
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "key"], name="zone_key_unique"),
            models.UniqueConstraint(fields=["version", "position"], name="zone_position_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Question(models.Model):
    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="questions")
    key = models.CharField(max_length=60, help_text="The question's id: [a-z0-9_]+")
    position = models.PositiveSmallIntegerField()
    ask = models.TextField()
    kind = models.CharField(max_length=10, choices=AnswerKind.choices)
    answer = models.CharField(max_length=300)
    accept = models.JSONField(default=list, blank=True)
    reject = models.JSONField(default=list, blank=True)
    evidence = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "key"], name="question_key_unique"),
            models.UniqueConstraint(
                fields=["version", "position"], name="question_position_unique"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=AnswerKind.values), name="question_kind_known"
            ),
        ]

    def __str__(self) -> str:
        return self.ask


class Location(models.Model):
    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="locations")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    text = models.TextField(blank=True)
    icons = models.JSONField(default=list, blank=True)
    carriages = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Carriages a reader gains; only with the carriages icon."
    )
    zone = models.ForeignKey(
        Zone, null=True, blank=True, on_delete=models.PROTECT, related_name="locations"
    )
    # The package file this card came from (its name is the author's choice).
    filename = models.CharField(max_length=200, blank=True)
    source_front_matter = models.TextField(blank=True, editable=False)

    class Meta:
        ordering = ["version", "number"]
        constraints = [
            models.UniqueConstraint(fields=["version", "number"], name="location_number_unique"),
            models.UniqueConstraint(
                fields=["version", "filename"],
                condition=~Q(filename=""),
                name="location_filename_unique",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="location_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"

    @property
    def icon_labels(self) -> list[tuple[str, str]]:
        """The card's icons as (key, label), for pages that show them."""
        return [(icon, Icon(icon).label) for icon in self.icons if icon in Icon.values]

    @property
    def icon_carriages(self) -> int:
        return self.carriages if self.carriages is not None else DEFAULT_ICON_CARRIAGES


class AnswerAttempt(models.Model):
    """One player's written answers to every question of a case version, and the verdicts.

    Judged by `cases.services.answer_attempt_judge` (a table's judging task calls it);
    `judged_at` is set once, so judging twice stores the verdict once.
    """

    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="answer_attempts",
    )
    answers = models.JSONField(help_text="Question id → the answer as written.")
    # From a private table (a play-test): judged like any other, counted in no figure.
    private = models.BooleanField(default=False)
    # Question id → {"verdict": correct|wrong|unsure, "score": float, "reason": str}.
    verdicts = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    judged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        state = "judged" if self.judged_at else "waiting"
        return f"Attempt {self.pk} on {self.version} ({state})"

    @property
    def correct_count(self) -> int:
        return sum(1 for v in (self.verdicts or {}).values() if v["verdict"] == "correct")


class NearMiss(models.Model):
    """A wrong or unsure answer to a question, normalised and counted.

    Authors read these to find fair answers the checker refused, and can turn one into an
    accepted form in a new draft version.
    """

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="near_misses")
    normalised = models.CharField(max_length=300)
    example = models.CharField(max_length=300, help_text="The first answer seen in this form.")
    verdict = models.CharField(max_length=10)
    reason = models.CharField(max_length=300, blank=True)
    count = models.PositiveIntegerField(default=1)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["question", "-count", "normalised"]
        constraints = [
            models.UniqueConstraint(
                fields=["question", "normalised"], name="near_miss_form_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.example!r} ×{self.count}"
