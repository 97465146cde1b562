// format.js: small presentation helpers shared by the views.

export function localTime(iso, timeZone) {
    if (!iso) return '';
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return iso;
    const opts = { weekday: 'short', hour: '2-digit', minute: '2-digit' };
    try {
        return new Intl.DateTimeFormat(undefined, { ...opts, timeZone: timeZone || undefined }).format(d);
    } catch {
        return new Intl.DateTimeFormat(undefined, opts).format(d);
    }
}

// Ranks that occur more than once in a list of entries: shared places.
export function sharedRanks(entries) {
    const seen = new Map();
    for (const e of entries) if (e.rank !== null) seen.set(e.rank, (seen.get(e.rank) || 0) + 1);
    return new Set([...seen].filter(([, n]) => n > 1).map(([r]) => r));
}

// "3", "=2" for a shared place, "–" for no place.
export function placeText(rank, shared) {
    if (rank === null || rank === undefined) return '–';
    return shared ? `=${rank}` : String(rank);
}

export const SCORE_HINT = {
    time: '7:45, CAP+12 or WD',
    reps: '212 or WD',
    load: '102.5, 100 kg or WD',
    points: '87.5 or WD',
};

export const STATUS_TEXT = { scheduled: 'next', running: 'running', finished: 'finished' };
