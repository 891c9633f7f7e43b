/** A credential type's fields as the editor shows them and as n8n saves an untouched one. */
import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/** The field named `name`; a test naming a field the credential lacks fails here, saying which. */
export function fieldOf(credential: ICredentialType, name: string): INodeProperties {
	const found = credential.properties.find((property) => property.name === name);
	if (!found) throw new Error(`${credential.name} has no field ${name}`);
	return found;
}

/** What n8n saves for a credential nobody filled in: each field's default. */
export function defaultsOf(credential: ICredentialType): Record<string, unknown> {
	return Object.fromEntries(
		credential.properties.map((property) => [property.name, property.default]),
	);
}
