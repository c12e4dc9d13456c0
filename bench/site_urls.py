"""The site's URLs plus `bench/empty/`, which exists only for `python -m bench api`.

The empty endpoint goes through everything the action endpoint does before any table code
runs (middleware, DRF, token authentication, the IsAuthenticated permission) and answers
`{}`, so the two figures differ by the cost of the move itself.
"""

from django.urls import include, path
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView


class EmptyApi(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request):
        return Response({})

    def post(self, request):
        return Response({})


urlpatterns = [
    path("bench/empty/", EmptyApi.as_view(), name="bench-empty"),
    path("", include("holmes_site.urls")),
]
