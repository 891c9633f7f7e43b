/**
 * A message as n8n shows an error: a short title (what happened, in red) and a description under
 * it (what to do). Every message in messages.ts is written as "what happened. What to do.": the
 * split is the first sentence end that a capital letter follows, outside parentheses and quotes
 * (hosts such as auth.example.com have no space after their dots). A server's words quoted after a
 * status may hold a sentence end of their own: the split then comes early, and the title and the
 * description still read as the whole message.
 */
export interface MessageParts {
	title: string;
	/** What to do; undefined for a message of one sentence. */
	remedy?: string;
}

export function messageParts(message: string): MessageParts {
	let depth = 0;
	let quoted = false;
	for (let index = 0; index < message.length; index++) {
		const char = message[index];
		if (char === '"') quoted = !quoted;
		else if (quoted) continue;
		else if (char === '(') depth++;
		else if (char === ')') depth = Math.max(0, depth - 1);
		else if (char === '.' && depth === 0 && /^\s+[A-Z]/.test(message.slice(index + 1, index + 3)))
			return {
				title: message.slice(0, index + 1),
				remedy: message.slice(index + 1).trim(),
			};
	}
	return { title: message };
}
