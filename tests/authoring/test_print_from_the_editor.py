"""Print-and-play from the author's side: the preview links the PDF of the version shown,
and the PDF of a version in review reaches neither another author nor the moderator
reviewing it blind (cases/printing.version_may_print)."""

from django.urls import reverse


def print_url(version) -> str:
    return reverse("play:case-print", args=[version.case.slug]) + f"?version={version.number}"


def test_alice_prints_her_draft_from_its_preview(client, alice, draft):
    client.force_login(alice)
    preview = client.get(reverse("admin:cases_caseversion_preview", args=[draft.pk])).text
    assert f'href="{print_url(draft)}"' in preview
    response = client.get(print_url(draft))
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF-")


def test_nobody_else_prints_a_version_in_review(client, bob, mina, in_review):
    for user in (bob, mina):  # another author; the moderator reviewing it blind
        client.force_login(user)
        assert client.get(print_url(in_review)).status_code == 404
        # Without a version number they get the published one, and there is none.
        assert client.get(reverse("play:case-print", args=[in_review.case.slug])).status_code == 404


def test_once_published_anyone_logged_in_prints_it(client, published, bob):
    client.force_login(bob)
    response = client.get(reverse("play:case-print", args=[published.case.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'inline; filename="{published.case.slug}-v{published.number}.pdf"'
    )
