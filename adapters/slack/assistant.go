package slack

import (
	"context"

	"github.com/slack-go/slack"

	"shopbot/engine"
	"shopbot/engine/locale"
	"shopbot/engine/view"
)

// Slack's AI app surface (assistant threads, the split view). A shopper
// who opens the assistant gets an assistant_thread_started event: the
// thread gets suggested prompts from their last orders and the shop's
// categories (assistant.threads.setSuggestedPrompts). Each message in an
// assistant thread (a thread of the app's DM) is a turn like any DM; while
// it runs the thread shows a status (assistant.threads.setStatus, cleared
// when the turn ends), and the thread's first message becomes its title
// (assistant.threads.setTitle). The words (status, prompts, title) come
// from the text catalogue (slack.* keys) in the member's Slack locale
// (users.info's locale), else the shop's (Config.Locale). A failing call
// is logged and the turn goes on: the surface is a nicety, the answer is
// what counts.

// Bounds of Slack's assistant API: up to four suggested prompts; titles are
// kept short so they fit the split view.
const (
	maxPrompts     = 4
	maxPromptTitle = 40
	maxThreadTitle = 60
)

// lang is the catalogue's language for a member: their Slack locale when
// users.info gives one, else the shop's.
func (a *Adapter) lang(ctx context.Context, user string) string {
	if l := a.api.userLocale(ctx, user); l != "" {
		return locale.Lang(l)
	}
	return locale.Lang(a.cfg.Locale)
}

// assistantThread answers assistant_thread_started with suggested prompts.
func (a *Adapter) assistantThread(ctx context.Context, user, channel, thread string) {
	home, err := a.cfg.Shop.Home(ctx, engine.Shopper{Channel: "slack", UserID: user, UserName: a.api.userName(ctx, user, user)})
	if err != nil {
		a.log.WarnContext(ctx, "slack assistant prompts not built", "user_id", user, "err", err)
		home = &view.Home{}
	}
	lang := a.lang(ctx, user)
	prompts := suggestedPrompts(home, lang)
	err = a.api.do(ctx, "assistant.threads.setSuggestedPrompts", func(ctx context.Context) error {
		return a.client.SetAssistantThreadsSuggestedPromptsContext(ctx, slack.AssistantThreadsSetSuggestedPromptsParameters{
			Title: locale.Word(lang, "slack.prompts_title"), ChannelID: channel, ThreadTS: thread, Prompts: prompts,
		})
	})
	if err != nil {
		a.log.WarnContext(ctx, "slack assistant.threads.setSuggestedPrompts failed", "channel_id", channel, "err", err)
	}
}

// suggestedPrompts: the products of the shopper's latest orders first (to
// buy again), then the shop's categories, then the cart; four at most.
func suggestedPrompts(h *view.Home, lang string) []slack.AssistantThreadsPrompt {
	var out []slack.AssistantThreadsPrompt
	seen := map[string]bool{}
	add := func(title, message string) {
		if len(out) < maxPrompts && !seen[message] {
			seen[message] = true
			out = append(out, slack.AssistantThreadsPrompt{Title: truncateRunes(title, maxPromptTitle), Message: message})
		}
	}
	for _, o := range h.Orders {
		if len(o.Lines) > 0 && len(out) < 2 {
			l := o.Lines[0]
			add(locale.Sprintf(lang, "slack.prompt_buy_again", l.Title), locale.Sprintf(lang, "slack.prompt_buy_again_message", l.Title))
		}
	}
	for _, c := range h.Categories {
		add(locale.Sprintf(lang, "slack.prompt_browse", c), locale.Sprintf(lang, "slack.prompt_browse_message", c))
	}
	add(locale.Word(lang, "slack.prompt_cart"), locale.Word(lang, "slack.prompt_cart"))
	return out
}

// assistantTurn wraps a turn in an assistant thread: the title from the
// thread's first message, a status while it runs, cleared after.
func (a *Adapter) assistantTurn(ctx context.Context, user, channel, thread, text string, first bool, run func()) {
	lang := a.lang(ctx, user)
	if first {
		a.assistantCall(ctx, "assistant.threads.setTitle", channel, func(ctx context.Context) error {
			return a.client.SetAssistantThreadsTitleContext(ctx, slack.AssistantThreadsSetTitleParameters{
				ChannelID: channel, ThreadTS: thread, Title: truncateRunes(locale.Sprintf(lang, "slack.thread_title", text), maxThreadTitle),
			})
		})
	}
	a.setStatus(ctx, channel, thread, locale.Word(lang, "slack.assistant_status"))
	run()
	a.setStatus(ctx, channel, thread, "")
}

func (a *Adapter) setStatus(ctx context.Context, channel, thread, status string) {
	a.assistantCall(ctx, "assistant.threads.setStatus", channel, func(ctx context.Context) error {
		return a.client.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{
			ChannelID: channel, ThreadTS: thread, Status: status,
		})
	})
}

func (a *Adapter) assistantCall(ctx context.Context, method, channel string, call func(context.Context) error) {
	if err := a.api.do(ctx, method, call); err != nil {
		a.log.WarnContext(ctx, "slack "+method+" failed", "channel_id", channel, "err", err)
	}
}
