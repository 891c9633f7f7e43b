/**
 * The rules a signing secret must meet, for the credential's Test button and for the webhook alike.
 * The service offers no endpoint that confirms a signing secret, so the Test button can only catch
 * paste mistakes (a test event proves the rest); and since n8n saves a credential whose Test
 * failed, the webhook applies the same rules before it verifies anything with a secret: a secret
 * such as `-` would let anyone who guesses it start the workflow.
 */
const MIN_LENGTH = 16;
const MAX_LENGTH = 512;

export interface SecretCheckResult {
	status: 'OK' | 'Error';
	message: string;
}

export function checkSigningSecrets(data: Record<string, unknown> | undefined): SecretCheckResult {
	const current = data?.signingSecret;
	const previous = data?.previousSigningSecret;
	const problem =
		describeProblem('Signing Secret', current) ??
		(previous === undefined || previous === ''
			? undefined
			: describeProblem('Previous Signing Secret', previous)) ??
		(previous === current ? 'Previous Signing Secret is the same as Signing Secret' : undefined);
	if (problem) return { status: 'Error', message: problem };
	return {
		status: 'OK',
		message:
			'Format checked locally only: send a test event from the Developer hub to confirm the secret',
	};
}

function describeProblem(label: string, value: unknown): string | undefined {
	if (typeof value !== 'string' || value.length === 0) return `${label} is empty`;
	if (value.trim() !== value) return `${label} has leading or trailing whitespace`;
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
