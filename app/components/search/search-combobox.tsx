import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import { pluralize } from '~/lib/plural';
import {
  MIN_SUGGESTION_LENGTH,
  SUGGESTION_KIND_LABELS,
  SUGGESTION_KINDS,
  suggestionQuery,
  suggestionsUrl,
  type Suggestion,
  type SuggestionsAnswer,
} from '~/lib/search-suggestions';

/** How long typing pauses before the suggestions are asked for. */
const DEBOUNCE_MS = 150;

interface SearchComboboxProps {
  id: string;
  name: string;
  placeholder: string;
  /** The input's classes (the caller's wrapper is `relative`: the list opens below the input). */
  className: string;
  defaultValue?: string;
  /** The form the input belongs to when it stands outside it (the marketplace's filters). */
  form?: string;
}

/**
 * A search box that suggests agents, categories and creators as you type (ADR 063): the WAI-ARIA
 * 1.2 combobox with a listbox popup. Without JavaScript, and until hydration, it is the plain
 * search input of its GET form, exactly as the server renders it; the listbox, the live region and
 * the combobox's ARIA attributes only exist client-side. Focus stays in the input: the arrow keys
 * move the active option (aria-activedescendant), Enter on it goes there, Enter without one submits
 * the form, Escape closes the list and a second Escape clears the text.
 */
export function SearchCombobox({ id, className, ...inputProps }: SearchComboboxProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  /** The suggestions shown, in the order of their groups, and the text they are for. */
  const [shown, setShown] = useState<SuggestionsAnswer | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState('');
  // The waiting request: its timer, its fetch, and a sequence number that any newer text (or
  // closing the list) moves on, so that a late answer to older text is dropped.
  const pending = useRef<{ timer?: ReturnType<typeof setTimeout>; fetch?: AbortController; sequence: number }>({
    sequence: 0,
  });
  const listboxId = `${id}-suggestions`;
  const optionId = (index: number) => `${id}-suggestion-${index}`;
  const suggestions = shown?.suggestions ?? [];
  const activeOption = open && active >= 0 ? suggestions[active] : undefined;
  const activeId = activeOption ? optionId(active) : undefined;

  useEffect(() => {
    const waiting = pending.current;
    return () => {
      clearTimeout(waiting.timer);
      waiting.fetch?.abort();
      waiting.sequence++;
    };
  }, []);

  // The active option stays in view in a list taller than its box.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  /** Forgets the waiting request; returns the new sequence number. */
  function cancel(): number {
    const waiting = pending.current;
    clearTimeout(waiting.timer);
    waiting.fetch?.abort();
    waiting.fetch = undefined;
    return ++waiting.sequence;
  }

  function close() {
    cancel();
    setOpen(false);
    setActive(-1);
    setAnnouncement('');
  }

  /** Asks for the suggestions for `typed` after `delay` ms; shorter text empties the list at once. */
  function request(typed: string, delay: number) {
    const sequence = cancel();
    const waiting = pending.current;
    const query = suggestionQuery(typed);
    setActive(-1);
    if (query.length < MIN_SUGGESTION_LENGTH) {
      setShown(null);
      setOpen(false);
      setAnnouncement('');
      return;
    }
    waiting.timer = setTimeout(async () => {
      const controller = new AbortController();
      waiting.fetch = controller;
      let answer: SuggestionsAnswer | null = null;
      try {
        // No cookies: the answer is everyone's, and a browser may keep it (Cache-Control).
        const response = await fetch(suggestionsUrl(query), {
          signal: controller.signal,
          credentials: 'omit',
          headers: { Accept: 'application/json' },
        });
        if (response.ok) answer = (await response.json()) as SuggestionsAnswer;
      } catch {
        // Aborted (newer text) or offline: no suggestions; the search itself still works.
      }
      if (sequence !== waiting.sequence) return;
      waiting.fetch = undefined;
      const ordered = SUGGESTION_KINDS.flatMap((kind) => answer?.suggestions.filter((s) => s.kind === kind) ?? []);
      setShown(answer && { query: answer.query, suggestions: ordered });
      setOpen(ordered.length > 0);
      setActive(-1);
      setAnnouncement(
        answer === null ? '' : ordered.length ? pluralize(ordered.length, 'suggestion') : 'No suggestions',
      );
    }, delay);
  }

  function choose(suggestion: Suggestion) {
    close();
    void navigate(suggestion.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.nativeEvent.isComposing) return;
    const input = event.currentTarget;
    const count = suggestions.length;
    // The list may open again on an arrow key only while it is the current text's.
    const current = shown !== null && shown.query === suggestionQuery(input.value) && count > 0;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        const down = event.key === 'ArrowDown';
        if (open) {
          setActive(down ? (active + 1) % count : active <= 0 ? count - 1 : active - 1);
        } else if (current) {
          setOpen(true);
          setActive(event.altKey ? -1 : down ? 0 : count - 1);
        } else {
          request(input.value, 0);
        }
        break;
      }
      case 'Enter':
        if (activeOption) {
          event.preventDefault();
          choose(activeOption);
        } else {
          close(); // and the form is submitted, as without JavaScript
        }
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          close();
        } else if (input.value !== '') {
          // The second Escape clears the text, as a native search input does (in every browser).
          event.preventDefault();
          input.value = '';
          request('', 0);
        }
        break;
    }
  }

  const groups = SUGGESTION_KINDS.map((kind) => ({
    kind,
    options: suggestions.flatMap((suggestion, index) => (suggestion.kind === kind ? [{ suggestion, index }] : [])),
  })).filter((group) => group.options.length > 0);

  return (
    <>
      <input
        id={id}
        type="search"
        {...inputProps}
        className={className}
        onChange={(event) => request(event.currentTarget.value, DEBOUNCE_MS)}
        onKeyDown={onKeyDown}
        onBlur={close}
        {...(hydrated
          ? {
              role: 'combobox',
              autoComplete: 'off',
              'aria-autocomplete': 'list' as const,
              'aria-expanded': open,
              'aria-controls': listboxId,
              'aria-activedescendant': activeId,
            }
          : {})}
      />
      {hydrated ? (
        <>
          {/* Pressing in the list keeps focus in the input (no blur closes it before the click):
              the list is never focused, keys act in the input (aria-activedescendant). */}
          {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus */}
          <div
            id={listboxId}
            role="listbox"
            aria-label="Search suggestions"
            hidden={!open}
            onMouseDown={(event) => event.preventDefault()}
            className="absolute inset-x-0 top-full z-30 mt-1 max-h-[min(24rem,70vh)] overflow-y-auto overscroll-contain rounded-lg border border-slate-200 bg-white py-1 text-left shadow-lg dark:border-slate-700 dark:bg-slate-900"
          >
            {groups.map((group) => (
              <div key={group.kind} role="group" aria-labelledby={`${listboxId}-${group.kind}`}>
                <div
                  id={`${listboxId}-${group.kind}`}
                  aria-hidden="true"
                  className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400"
                >
                  {SUGGESTION_KIND_LABELS[group.kind].group}
                </div>
                {group.options.map(({ suggestion, index }) => (
                  <SuggestionOption
                    key={`${suggestion.kind}:${suggestion.value}`}
                    id={optionId(index)}
                    suggestion={suggestion}
                    active={index === active}
                    onChoose={() => choose(suggestion)}
                  />
                ))}
              </div>
            ))}
          </div>
          <div aria-live="polite" aria-atomic="true" className="sr-only">
            {announcement}
          </div>
        </>
      ) : null}
    </>
  );
}

/**
 * One suggestion: its name, then what kind it is (read by screen readers, whose group heading
 * may go unannounced) and its detail (an agent's category, a creator's username).
 */
function SuggestionOption({
  id,
  suggestion,
  active,
  onChoose,
}: {
  id: string;
  suggestion: Suggestion;
  active: boolean;
  onChoose: () => void;
}) {
  const { kind, label, value, detail } = suggestion;
  const about = kind === 'creator' ? (label === value ? null : `@${value}`) : detail;
  return (
    // Keys act in the input (aria-activedescendant); the option itself is only clicked.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={active}
      onClick={onChoose}
      className="mx-1 cursor-pointer rounded-md px-2 py-2 text-sm text-slate-900 hover:bg-slate-100 aria-selected:bg-brand-50 aria-selected:outline-2 aria-selected:-outline-offset-2 aria-selected:outline-focus dark:text-slate-100 dark:hover:bg-slate-800 dark:aria-selected:bg-slate-800"
    >
      <span className="block font-medium break-words">{label}</span>
      <span className="sr-only">, {SUGGESTION_KIND_LABELS[kind].one}</span>
      {about ? (
        <span className="block text-xs break-words text-slate-600 dark:text-slate-400">
          <span className="sr-only">, </span>
          {about}
        </span>
      ) : null}
    </div>
  );
}
