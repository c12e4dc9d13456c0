"""The deduction grid's marks, read from the player's notebook where the page renders it
(the shell hands the template ``notebook_marks``; the site's ``page`` never sees them)."""

from django import template

from games.holmes_elementary import page

register = template.Library()


@register.filter
def with_marks(rows, marks):
    return page.with_marks(rows, marks)


@register.filter
def marks_json(marks):
    return page.marks_json(marks)
