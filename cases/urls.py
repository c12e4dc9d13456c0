from django.urls import path

from . import views

app_name = "cases"

urlpatterns = [
    path("", views.home, name="home"),
    path("cases/<slug:slug>/", views.case_detail, name="detail"),
]
