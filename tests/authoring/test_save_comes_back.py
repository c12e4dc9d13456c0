"""Save and continue editing brings the writer back to the field they were in."""

from django.urls import reverse

from .conftest import change_form_data


def save_from(client, version, field: str):
    url = reverse("admin:cases_caseversion_change", args=[version.pk])
    data = change_form_data(client.get(url))
    data.update(_continue="Save and continue editing", _return_to=field)
    return client.post(url, data)


def test_it_comes_back_to_the_field_the_writer_was_in(client, alice, draft):
    client.force_login(alice)

    response = save_from(client, draft, "id_locations-3-text")

    assert response.status_code == 302
    assert response["Location"].endswith("/change/#id_locations-3-text")


def test_it_ignores_a_return_to_that_is_not_a_field_id(client, alice, draft):
    client.force_login(alice)

    response = save_from(client, draft, '"><script>alert(1)</script>')

    assert response.status_code == 302
    assert "#" not in response["Location"]
