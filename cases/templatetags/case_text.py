from django import template

from cases.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str):
    """Author Markdown, rendered and sanitised (see cases.markdown)."""
    return render_markdown(text)
