"""Runs localstripe (a fake but stateful Stripe server) for one test run.

localstripe's own `start()` binds every interface and pickles its store to
/tmp/localstripe.pickle, shared by every run on the machine. This launcher keeps the state in
memory and listens on 127.0.0.1 only: python localstripe_launcher.py PORT

localstripe sends `customer.subscription.created` and `.deleted` but not `.updated`, which Stripe
sends on every change (plan, `cancel_at_period_end`). The one addition here: after an update,
localstripe's own webhook sender delivers `customer.subscription.updated` with the stored
subscription, signed like its other events (README, "Billing").
"""
import sys

from aiohttp import web
from localstripe import resources
from localstripe.server import app
from localstripe.webhooks import schedule_webhook

resources.Store.dump_to_disk = lambda self: None
resources.Store.try_load_from_disk = lambda self: None

_update = resources.Subscription._update


def _update_and_notify(self, *args, **kwargs):
    _update(self, *args, **kwargs)
    schedule_webhook(resources.Event('customer.subscription.updated', self))


resources.Subscription._update = _update_and_notify

web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None)
