"""The lobby's invite link as a QR code, for phones around a real table to scan.

segno draws it as an SVG made of paths with presentation attributes only (no style
attribute, no script), so it is shown inline under the site's content security policy and
fetches nothing.
"""

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def invite_qr_svg(url: str) -> SafeString:
    """An SVG QR code of `url` that scales to the size CSS gives it (it has a viewBox and
    no fixed size): dark modules on white with the standard four-module margin, whatever
    the page's colours, since scanners need that contrast. Medium error correction: a
    phone's camera at arm's length can lose a few modules to glare."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(
        omitsize=True, svgclass="invite-qr-code", lineclass=None, dark="#000", light="#fff"
    )
    # segno writes only numbers and fixed attributes into the SVG: the URL is in the modules.
    return mark_safe(svg)
