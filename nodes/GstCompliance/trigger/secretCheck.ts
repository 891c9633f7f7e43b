/**
 * The rules a signing secret must meet, for the credential's Test button and for the webhook alike.
 * The service offers no endpoint that confirms a signing secret, so the Test button can only catch
 * paste mistakes (a test event proves the rest); and since n8n saves a credential whose Test
 * failed, the webhook applies the same rules before it verifies anything with a secret: a secret
 * such as `-` would let anyone who guesses it start the workflow.
 */
import { codePointName } from '../controlCharacters';

const MIN_LENGTH = 16;
const MAX_LENGTH = 512;

/**
 * What copying a secret from a web page, a chat or a document brings along unseen, or what only
 * looks like a space: control and format characters (zero-width space, soft hyphen, word joiner,
 * byte order mark), line and paragraph separators, the other default-ignorable code points
 * (variation selectors, fillers), every space but U+0020, and unpaired surrogates (no UTF-8 form:
 * the HMAC would use U+FFFD instead). A secret holding one is a paste accident, not the secret the
 * service signs with, so every genuine delivery would get 401. A plain space, and any character
 * that shows, stays allowed: the service documents no alphabet for signing secrets.
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/u;

export interface SecretCheckResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * The Test button's verdict is the webhook's own (`usableSigningSecrets`): a credential passes
 * only when the webhook would verify with every secret in it.
 */
export function checkSigningSecrets(data: Record<string, unknown> | undefined): SecretCheckResult {
	const usable = usableSigningSecrets(data);
	const problem = usable.unusable ?? usable.ignored;
	if (problem) return { status: 'Error', message: problem };
	return {
		status: 'OK',
		message:
			'Format checked locally only: send a test event from the Developer hub to confirm the secret',
	};
}

/**
 * What is wrong with one secret: the field and, for a character, its code point and position, never
 * the value.
 */
function describeProblem(label: string, value: unknown): string | undefined {
	if (typeof value !== 'string' || value.length === 0) return `${label} is empty`;
	if (value.trim() !== value) return `${label} has leading or trailing whitespace`;
	const unseen = UNSEEN.exec(value);
	if (unseen) {
		// Counted in characters as the user sees them, not UTF-16 units.
		const position = [...value.slice(0, unseen.index)].length + 1;
		const codePoint = codePointName(unseen[0].codePointAt(0) as number);
		return `${label} contains ${codePoint} at character ${position}, an invisible or space-like character (such as a zero-width space, soft hyphen or no-break space) that copying brings along and no delivery's signature matches: paste the secret again from the Developer hub, or type it`;
	}
	if (value.length < MIN_LENGTH)
		return `${label} is shorter than ${MIN_LENGTH} characters: was it copied whole?`;
	if (value.length > MAX_LENGTH) return `${label} is longer than ${MAX_LENGTH} characters`;
	return undefined;
}

/** The secrets the webhook may verify with, and what it had to leave out (never the values). */
export interface UsableSecrets {
	/** Empty when the Signing Secret itself breaks the rules: the trigger is not configured. */
	secrets: string[];
	/** Why the Signing Secret is not used (every delivery is refused). */
	unusable?: string;
	/** Why the Previous Signing Secret is ignored. */
	ignored?: string;
}

export function usableSigningSecrets(data: Record<string, unknown> | undefined): UsableSecrets {
	const current = data?.signingSecret;
	const previous = data?.previousSigningSecret;
	const unusable = describeProblem('Signing Secret', current);
	if (unusable) return { secrets: [], unusable };
	if (previous === undefined || previous === null || previous === '')
		return { secrets: [current as string] };
	const ignored =
		describeProblem('Previous Signing Secret', previous) ??
		(previous === current ? 'Previous Signing Secret is the same as Signing Secret' : undefined);
	return ignored
		? { secrets: [current as string], ignored }
		: { secrets: [current as string, previous as string] };
}
