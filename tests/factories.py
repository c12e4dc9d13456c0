"""Test data for the case domain (factory-boy): a small published case by default."""

import factory

from cases.models import AnswerKind, Case, CaseVersion, Location, Question, VersionStatus


class CaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Case

    slug = factory.Sequence(lambda n: f"the-case-of-the-{n}-lanterns")


class CaseVersionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CaseVersion

    case = factory.SubFactory(CaseFactory)
    number = 1
    status = VersionStatus.PUBLISHED
    title = factory.Sequence(lambda n: f"The Case of the {n} Lanterns")
    difficulty = 1
    introduction = "A lamplighter is found asleep on the Embankment at noon."
    solution = "SOLUTION-SECRET: the lamplighter was drugged by Walter Finch."


class QuestionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Question

    version = factory.SubFactory(CaseVersionFactory)
    key = factory.Sequence(lambda n: f"question_{n}")
    position = factory.Sequence(int)
    ask = "Who drugged the lamplighter?"
    kind = AnswerKind.PERSON
    answer = "ANSWER-SECRET Walter Finch"
    accept = factory.LazyFunction(lambda: ["ACCEPT-SECRET Wally Finch"])
    reject = factory.LazyFunction(lambda: ["REJECT-SECRET Agnes Finch"])
    evidence = factory.LazyFunction(lambda: [1])


class LocationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Location

    version = factory.SubFactory(CaseVersionFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Lamp post {n + 1}")
    text = "CARD-SECRET: the lamp oil smells of laudanum."
    icons = factory.LazyFunction(list)
    filename = factory.LazyAttribute(lambda loc: f"{loc.number:02d}-lamp-post.md")
