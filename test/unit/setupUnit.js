/**
 * Unit tests open no sockets (test/projects.js): a file that does belongs to the integration
 * project, and this says so instead of letting it run slowly in the fast one.
 */
'use strict';

const net = require('net');

const refuse = () => {
	throw new Error(
		'A unit test opened a socket: this file belongs to the integration project. Add the import ' +
			'that needs it to the markers in test/projects.js, or keep the test in-process.',
	);
};
net.Socket.prototype.connect = refuse;
net.Server.prototype.listen = refuse;
