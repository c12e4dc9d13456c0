from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import ApiToken, User


@admin.register(User)
class HolmesUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Holmes", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """To see and revoke (delete) a user's API tokens. They are issued through the API
    only: a key is shown once, to the program that asked for it."""

    list_display = ("prefix", "user", "created_at", "last_used_at", "expires_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "prefix")
    readonly_fields = ("user", "prefix", "created_at", "last_used_at")
    exclude = ("digest",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
