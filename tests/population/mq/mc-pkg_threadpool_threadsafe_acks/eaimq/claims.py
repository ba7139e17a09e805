"""Client of the claim system."""
import logging

import requests

from .config import settings

log = logging.getLogger(__name__)

ACCEPTED = "accepted"        # 201
REJECTED = "rejected"        # 422: business rejection, never retry
TRANSIENT = "transient"      # 503, connection failure, timeout, anything else


def submit(base_url, body):
    try:
        resp = requests.post(base_url.rstrip("/") + "/v1/claims", data=body,
                             headers={"Content-Type": "application/json"}, timeout=settings.http_timeout)
    except requests.exceptions.RequestException as exc:
        log.warning("claim system call failed: %s", type(exc).__name__)
        return TRANSIENT, None
    if resp.status_code == 201:
        return ACCEPTED, 201
    if resp.status_code == 422:
        return REJECTED, 422
    return TRANSIENT, resp.status_code
