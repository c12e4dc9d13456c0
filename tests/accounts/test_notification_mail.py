"""A notification's e-mail never takes a header from unchecked text: a message with a line
break (a case title from before the linter refused them, say) is sent on one line, not
refused with BadHeaderError, which turned every notifying move into a 500."""

from django.core import mail

from accounts import services
from accounts.models import Notification


def test_it_sends_a_message_with_line_breaks_as_a_one_line_subject(
    alice, django_capture_on_commit_callbacks
):
    message = "The Ledger\r\nBcc: someone@example.com\u2028started\x1b \u202e"

    with django_capture_on_commit_callbacks(execute=True):
        services.notification_send(
            user=alice, kind="table_started", message=message, dedupe_key="k"
        )

    [sent] = mail.outbox
    assert sent.subject == "Holmes: The Ledger Bcc: someone@example.com started"
    assert sent.to == ["alice@example.com"] and sent.bcc == []
    assert sent.message()["Bcc"] is None
    assert Notification.objects.get(user=alice).message == message  # the page escapes it


def test_a_notifications_e_mail_links_to_the_site_by_its_full_address(
    alice, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://holmes.example"
    with django_capture_on_commit_callbacks(execute=True):
        services.notification_send(
            user=alice, kind="table_started", message="Started.", url="/tables/7/", dedupe_key="k"
        )

    [sent] = mail.outbox
    assert "https://holmes.example/tables/7/" in sent.body
    assert Notification.objects.get(user=alice).url == "/tables/7/"  # the site's own link


def test_an_address_not_yet_confirmed_gets_no_notification_by_e_mail(
    make_user, django_capture_on_commit_callbacks
):
    dora = make_user("dora", email_verified_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        services.notification_send(
            user=dora, kind="table_started", message="Started.", url="/tables/7/", dedupe_key="k"
        )

    assert mail.outbox == []
    assert Notification.objects.get(user=dora).emailed_at is None  # shown on the site only
