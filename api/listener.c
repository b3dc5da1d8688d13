/*
 * listener.c - what the HTTP side does after every committed change to a
 * game: wake the clients waiting on it (notify.c) and queue the webhook
 * deliveries it calls for (webhooks.c). cli/main.c gives this table to the game
 * service with the api_server as its context, so game/ reaches these
 * follow-ups without including anything of api/.
 */
#include "api.h"
#include "notify.h"

static void announce(void *ctx, const struct game_committed *change)
{
  struct api_server *server = ctx;

  api_notify_publish(server->notify, change->row, change->state);
}

static void enqueue_webhooks(void *ctx, const struct game_committed *change)
{
  api_webhooks_publish(ctx, change->row, change->prev_status, change->prev_to_act, change->prev_n,
                       change->state);
}

const struct game_listener api_game_listener = {
    .announce = announce,
    .enqueue_webhooks = enqueue_webhooks,
};
