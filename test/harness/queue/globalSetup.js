/**
 * jest globalSetup of the `queue` project: Postgres and Redis (installed when missing and
 * possible; otherwise this throws with what to install, so the specs fail instead of skipping),
 * then what every real-n8n project needs (the e2e runtime and a built package).
 */
'use strict';

const services = require('./installServices.js');
const e2eSetup = require('../globalSetup.js');

module.exports = async () => {
	services.install();
	await e2eSetup();
};
