/**
 * Local checks of the webhook credential. The service offers no endpoint that confirms a signing
 * secret, so the credential test can only catch paste mistakes; a test event proves the rest.
 */
// @ts-nocheck

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
