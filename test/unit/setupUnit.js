/**
 * Unit tests open no sockets (test/projects.js): a file that does belongs under test/integration,
 * and this says so instead of letting it run slowly in the fast one. Node's `net` module is
 * shared by every test file a jest worker runs, so the refusal is undone after each file.
 */
'use strict';

/* global beforeAll, afterAll -- jest globals: this file is a jest setup file */
const net = require('net');

const originals = {
	connect: net.Socket.prototype.connect,
	listen: net.Server.prototype.listen,
};

function refuse() {
	throw new Error(
		'A unit test opened a socket: move this file to the same path under test/integration, ' +
			'or keep the test in-process.',
	);
}

beforeAll(() => {
	net.Socket.prototype.connect = refuse;
	net.Server.prototype.listen = refuse;
});

afterAll(() => {
	net.Socket.prototype.connect = originals.connect;
	net.Server.prototype.listen = originals.listen;
});
