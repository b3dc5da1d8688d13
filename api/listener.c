/*
 * listener.c - what the HTTP side does around every change to a game: judge
 * the webhook deliveries it owes before it is written (webhooks.c; the game
 * layer stores them with its log row), wake the clients waiting on it
 * (notify.c) and hand the deliveries to the worker (deliver.c) once it is
 * committed. cli/main.c gives this table to the game service with the
 * api_server as its context, so game/ reaches these follow-ups without
 * including anything of api/.
 */
#include "api.h"
#include "notify.h"

static void announce(void *ctx, const struct game_committed *change)
{
  struct api_server *server = ctx;

  api_notify_publish(server->notify, change->row, change->to_act, change->n_to_act);
}

static void owe_webhooks(void *ctx, const struct game_committed *change, struct game_owed *owed)
{
  api_webhooks_owe(ctx, change, owed);
}

static void send_webhooks(void *ctx, struct game_owed *owed, bool committed)
{
  api_webhooks_send(ctx, owed, committed);
}

const struct game_listener api_game_listener = {
    .owe_webhooks = owe_webhooks,
    .announce = announce,
    .send_webhooks = send_webhooks,
};
