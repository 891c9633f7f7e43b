/**
 * `Service-Signature` webhook signatures (spec: Signature verification):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, with one or more `v1`.
 * Pure functions over the exact bytes received; nothing here parses the body.
 */
// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { createHmac, timingSafeEqual } from 'crypto';
export const SIGNATURE_HEADER = stryMutAct_9fa48("0") ? "" : (stryCov_9fa48("0"), 'service-signature');

/** Bounds that keep a hostile header from costing more than a few HMAC compares. */
const MAX_HEADER_LENGTH = 4096;
const MAX_SIGNATURES = 16;
const HMAC_HEX_LENGTH = 64;
export interface ParsedSignatureHeader {
  /** `t` exactly as received: the signed string uses these bytes, not a re-formatted number. */
  timestamp: string;
  /** Lower-case hex `v1` values, in header order. */
  signatures: string[];
}
export type VerifyFailure = 'malformed' | 'mismatch' | 'stale';
export type VerifyResult = {
  ok: true;
  timestamp: number;
  secretIndex: number;
} | {
  ok: false;
  reason: VerifyFailure;
};
export interface VerifyInput {
  /** Raw request body, byte-exact. */
  body: Buffer;
  header: string | string[] | undefined;
  /** Current secret first, then the previous one during rotation; empty entries are skipped. */
  secrets: ReadonlyArray<string | undefined>;
  nowSeconds: number;
  toleranceSeconds: number;
}

/** Hex HMAC-SHA256 over `<timestamp>.<body>`. */
export function sign(secret: string, timestamp: string | number, body: Buffer | string): string {
  if (stryMutAct_9fa48("1")) {
    {}
  } else {
    stryCov_9fa48("1");
    return signatureBytes(secret, String(timestamp), (stryMutAct_9fa48("4") ? typeof body !== 'string' : stryMutAct_9fa48("3") ? false : stryMutAct_9fa48("2") ? true : (stryCov_9fa48("2", "3", "4"), typeof body === (stryMutAct_9fa48("5") ? "" : (stryCov_9fa48("5"), 'string')))) ? Buffer.from(body) : body).toString(stryMutAct_9fa48("6") ? "" : (stryCov_9fa48("6"), 'hex'));
  }
}

/** The header value a sender would produce, e.g. for tests and local tools. */
export function formatSignatureHeader(timestamp: string | number, signatures: string[]): string {
  if (stryMutAct_9fa48("7")) {
    {}
  } else {
    stryCov_9fa48("7");
    return (stryMutAct_9fa48("8") ? [] : (stryCov_9fa48("8"), [stryMutAct_9fa48("9") ? `` : (stryCov_9fa48("9"), `t=${timestamp}`), ...signatures.map(stryMutAct_9fa48("10") ? () => undefined : (stryCov_9fa48("10"), s => stryMutAct_9fa48("11") ? `` : (stryCov_9fa48("11"), `v1=${s}`)))])).join(stryMutAct_9fa48("12") ? "" : (stryCov_9fa48("12"), ','));
  }
}

/**
 * `t` once and `v1` at least once, in any order, spaces around parts tolerated; other well-formed
 * keys (future schemes) are ignored. Returns undefined for anything else.
 */
export function parseSignatureHeader(header: string | string[] | undefined): ParsedSignatureHeader | undefined {
  if (stryMutAct_9fa48("13")) {
    {}
  } else {
    stryCov_9fa48("13");
    // Node joins a repeated custom header with ", "; an array only comes from hand-built requests.
    const value = Array.isArray(header) ? header.join(stryMutAct_9fa48("14") ? "" : (stryCov_9fa48("14"), ',')) : header;
    if (stryMutAct_9fa48("17") ? (typeof value !== 'string' || value.length === 0) && value.length > MAX_HEADER_LENGTH : stryMutAct_9fa48("16") ? false : stryMutAct_9fa48("15") ? true : (stryCov_9fa48("15", "16", "17"), (stryMutAct_9fa48("19") ? typeof value !== 'string' && value.length === 0 : stryMutAct_9fa48("18") ? false : (stryCov_9fa48("18", "19"), (stryMutAct_9fa48("21") ? typeof value === 'string' : stryMutAct_9fa48("20") ? false : (stryCov_9fa48("20", "21"), typeof value !== (stryMutAct_9fa48("22") ? "" : (stryCov_9fa48("22"), 'string')))) || (stryMutAct_9fa48("24") ? value.length !== 0 : stryMutAct_9fa48("23") ? false : (stryCov_9fa48("23", "24"), value.length === 0)))) || (stryMutAct_9fa48("27") ? value.length <= MAX_HEADER_LENGTH : stryMutAct_9fa48("26") ? value.length >= MAX_HEADER_LENGTH : stryMutAct_9fa48("25") ? false : (stryCov_9fa48("25", "26", "27"), value.length > MAX_HEADER_LENGTH)))) return undefined;
    let timestamp: string | undefined;
    const signatures: string[] = stryMutAct_9fa48("28") ? ["Stryker was here"] : (stryCov_9fa48("28"), []);
    for (const part of value.split(stryMutAct_9fa48("29") ? "" : (stryCov_9fa48("29"), ','))) {
      if (stryMutAct_9fa48("30")) {
        {}
      } else {
        stryCov_9fa48("30");
        const match = (stryMutAct_9fa48("40") ? /^\s*([A-Za-z0-9_-]+)=(\S+?)\S*$/ : stryMutAct_9fa48("39") ? /^\s*([A-Za-z0-9_-]+)=(\S+?)\s$/ : stryMutAct_9fa48("38") ? /^\s*([A-Za-z0-9_-]+)=(\s+?)\s*$/ : stryMutAct_9fa48("37") ? /^\s*([A-Za-z0-9_-]+)=(\S)\s*$/ : stryMutAct_9fa48("36") ? /^\s*([^A-Za-z0-9_-]+)=(\S+?)\s*$/ : stryMutAct_9fa48("35") ? /^\s*([A-Za-z0-9_-])=(\S+?)\s*$/ : stryMutAct_9fa48("34") ? /^\S*([A-Za-z0-9_-]+)=(\S+?)\s*$/ : stryMutAct_9fa48("33") ? /^\s([A-Za-z0-9_-]+)=(\S+?)\s*$/ : stryMutAct_9fa48("32") ? /^\s*([A-Za-z0-9_-]+)=(\S+?)\s*/ : stryMutAct_9fa48("31") ? /\s*([A-Za-z0-9_-]+)=(\S+?)\s*$/ : (stryCov_9fa48("31", "32", "33", "34", "35", "36", "37", "38", "39", "40"), /^\s*([A-Za-z0-9_-]+)=(\S+?)\s*$/)).exec(part);
        if (stryMutAct_9fa48("43") ? false : stryMutAct_9fa48("42") ? true : stryMutAct_9fa48("41") ? match : (stryCov_9fa48("41", "42", "43"), !match)) return undefined;
        const [, key, item] = match;
        if (stryMutAct_9fa48("46") ? key !== 't' : stryMutAct_9fa48("45") ? false : stryMutAct_9fa48("44") ? true : (stryCov_9fa48("44", "45", "46"), key === (stryMutAct_9fa48("47") ? "" : (stryCov_9fa48("47"), 't')))) {
          if (stryMutAct_9fa48("48")) {
            {}
          } else {
            stryCov_9fa48("48");
            if (stryMutAct_9fa48("51") ? timestamp !== undefined && !/^\d{1,12}$/.test(item) : stryMutAct_9fa48("50") ? false : stryMutAct_9fa48("49") ? true : (stryCov_9fa48("49", "50", "51"), (stryMutAct_9fa48("53") ? timestamp === undefined : stryMutAct_9fa48("52") ? false : (stryCov_9fa48("52", "53"), timestamp !== undefined)) || (stryMutAct_9fa48("54") ? /^\d{1,12}$/.test(item) : (stryCov_9fa48("54"), !(stryMutAct_9fa48("58") ? /^\D{1,12}$/ : stryMutAct_9fa48("57") ? /^\d$/ : stryMutAct_9fa48("56") ? /^\d{1,12}/ : stryMutAct_9fa48("55") ? /\d{1,12}$/ : (stryCov_9fa48("55", "56", "57", "58"), /^\d{1,12}$/)).test(item))))) return undefined;
            timestamp = item;
          }
        } else if (stryMutAct_9fa48("61") ? key !== 'v1' : stryMutAct_9fa48("60") ? false : stryMutAct_9fa48("59") ? true : (stryCov_9fa48("59", "60", "61"), key === (stryMutAct_9fa48("62") ? "" : (stryCov_9fa48("62"), 'v1')))) {
          if (stryMutAct_9fa48("63")) {
            {}
          } else {
            stryCov_9fa48("63");
            if (stryMutAct_9fa48("66") ? item.length !== HMAC_HEX_LENGTH && !/^[0-9a-fA-F]+$/.test(item) : stryMutAct_9fa48("65") ? false : stryMutAct_9fa48("64") ? true : (stryCov_9fa48("64", "65", "66"), (stryMutAct_9fa48("68") ? item.length === HMAC_HEX_LENGTH : stryMutAct_9fa48("67") ? false : (stryCov_9fa48("67", "68"), item.length !== HMAC_HEX_LENGTH)) || (stryMutAct_9fa48("69") ? /^[0-9a-fA-F]+$/.test(item) : (stryCov_9fa48("69"), !(stryMutAct_9fa48("73") ? /^[^0-9a-fA-F]+$/ : stryMutAct_9fa48("72") ? /^[0-9a-fA-F]$/ : stryMutAct_9fa48("71") ? /^[0-9a-fA-F]+/ : stryMutAct_9fa48("70") ? /[0-9a-fA-F]+$/ : (stryCov_9fa48("70", "71", "72", "73"), /^[0-9a-fA-F]+$/)).test(item))))) return undefined;
            signatures.push(stryMutAct_9fa48("74") ? item.toUpperCase() : (stryCov_9fa48("74"), item.toLowerCase()));
          }
        }
      }
    }
    if (stryMutAct_9fa48("77") ? (timestamp === undefined || signatures.length === 0) && signatures.length > MAX_SIGNATURES : stryMutAct_9fa48("76") ? false : stryMutAct_9fa48("75") ? true : (stryCov_9fa48("75", "76", "77"), (stryMutAct_9fa48("79") ? timestamp === undefined && signatures.length === 0 : stryMutAct_9fa48("78") ? false : (stryCov_9fa48("78", "79"), (stryMutAct_9fa48("81") ? timestamp !== undefined : stryMutAct_9fa48("80") ? false : (stryCov_9fa48("80", "81"), timestamp === undefined)) || (stryMutAct_9fa48("83") ? signatures.length !== 0 : stryMutAct_9fa48("82") ? false : (stryCov_9fa48("82", "83"), signatures.length === 0)))) || (stryMutAct_9fa48("86") ? signatures.length <= MAX_SIGNATURES : stryMutAct_9fa48("85") ? signatures.length >= MAX_SIGNATURES : stryMutAct_9fa48("84") ? false : (stryCov_9fa48("84", "85", "86"), signatures.length > MAX_SIGNATURES)))) return undefined;
    return stryMutAct_9fa48("87") ? {} : (stryCov_9fa48("87"), {
      timestamp,
      signatures
    });
  }
}

/**
 * Checks the signature against every secret and every `v1` in constant time, and the timestamp
 * against the tolerance. Both are always evaluated; the caller reports either failure the same way.
 */
export function verify(input: VerifyInput): VerifyResult {
  if (stryMutAct_9fa48("88")) {
    {}
  } else {
    stryCov_9fa48("88");
    const parsed = parseSignatureHeader(input.header);
    if (stryMutAct_9fa48("91") ? false : stryMutAct_9fa48("90") ? true : stryMutAct_9fa48("89") ? parsed : (stryCov_9fa48("89", "90", "91"), !parsed)) return stryMutAct_9fa48("92") ? {} : (stryCov_9fa48("92"), {
      ok: stryMutAct_9fa48("93") ? true : (stryCov_9fa48("93"), false),
      reason: stryMutAct_9fa48("94") ? "" : (stryCov_9fa48("94"), 'malformed')
    });
    const received = parsed.signatures.map(stryMutAct_9fa48("95") ? () => undefined : (stryCov_9fa48("95"), hex => Buffer.from(hex, stryMutAct_9fa48("96") ? "" : (stryCov_9fa48("96"), 'hex'))));
    let secretIndex = stryMutAct_9fa48("97") ? +1 : (stryCov_9fa48("97"), -1);
    input.secrets.forEach((secret, index) => {
      if (stryMutAct_9fa48("98")) {
        {}
      } else {
        stryCov_9fa48("98");
        if (stryMutAct_9fa48("101") ? false : stryMutAct_9fa48("100") ? true : stryMutAct_9fa48("99") ? secret : (stryCov_9fa48("99", "100", "101"), !secret)) return;
        const expected = signatureBytes(secret, parsed.timestamp, input.body);
        for (const candidate of received) {
          if (stryMutAct_9fa48("102")) {
            {}
          } else {
            stryCov_9fa48("102");
            if (stryMutAct_9fa48("105") ? candidate.length === expected.length && timingSafeEqual(candidate, expected) || secretIndex < 0 : stryMutAct_9fa48("104") ? false : stryMutAct_9fa48("103") ? true : (stryCov_9fa48("103", "104", "105"), (stryMutAct_9fa48("107") ? candidate.length === expected.length || timingSafeEqual(candidate, expected) : stryMutAct_9fa48("106") ? true : (stryCov_9fa48("106", "107"), (stryMutAct_9fa48("109") ? candidate.length !== expected.length : stryMutAct_9fa48("108") ? true : (stryCov_9fa48("108", "109"), candidate.length === expected.length)) && timingSafeEqual(candidate, expected))) && (stryMutAct_9fa48("112") ? secretIndex >= 0 : stryMutAct_9fa48("111") ? secretIndex <= 0 : stryMutAct_9fa48("110") ? true : (stryCov_9fa48("110", "111", "112"), secretIndex < 0)))) {
              if (stryMutAct_9fa48("113")) {
                {}
              } else {
                stryCov_9fa48("113");
                secretIndex = index;
              }
            }
          }
        }
      }
    });
    const timestamp = Number(parsed.timestamp);
    const fresh = stryMutAct_9fa48("117") ? Math.abs(input.nowSeconds - timestamp) > input.toleranceSeconds : stryMutAct_9fa48("116") ? Math.abs(input.nowSeconds - timestamp) < input.toleranceSeconds : stryMutAct_9fa48("115") ? false : stryMutAct_9fa48("114") ? true : (stryCov_9fa48("114", "115", "116", "117"), Math.abs(stryMutAct_9fa48("118") ? input.nowSeconds + timestamp : (stryCov_9fa48("118"), input.nowSeconds - timestamp)) <= input.toleranceSeconds);
    if (stryMutAct_9fa48("122") ? secretIndex >= 0 : stryMutAct_9fa48("121") ? secretIndex <= 0 : stryMutAct_9fa48("120") ? false : stryMutAct_9fa48("119") ? true : (stryCov_9fa48("119", "120", "121", "122"), secretIndex < 0)) return stryMutAct_9fa48("123") ? {} : (stryCov_9fa48("123"), {
      ok: stryMutAct_9fa48("124") ? true : (stryCov_9fa48("124"), false),
      reason: stryMutAct_9fa48("125") ? "" : (stryCov_9fa48("125"), 'mismatch')
    });
    if (stryMutAct_9fa48("128") ? false : stryMutAct_9fa48("127") ? true : stryMutAct_9fa48("126") ? fresh : (stryCov_9fa48("126", "127", "128"), !fresh)) return stryMutAct_9fa48("129") ? {} : (stryCov_9fa48("129"), {
      ok: stryMutAct_9fa48("130") ? true : (stryCov_9fa48("130"), false),
      reason: stryMutAct_9fa48("131") ? "" : (stryCov_9fa48("131"), 'stale')
    });
    return stryMutAct_9fa48("132") ? {} : (stryCov_9fa48("132"), {
      ok: stryMutAct_9fa48("133") ? false : (stryCov_9fa48("133"), true),
      timestamp,
      secretIndex
    });
  }
}
function signatureBytes(secret: string, timestamp: string, body: Buffer): Buffer {
  if (stryMutAct_9fa48("134")) {
    {}
  } else {
    stryCov_9fa48("134");
    return createHmac(stryMutAct_9fa48("135") ? "" : (stryCov_9fa48("135"), 'sha256'), secret).update(stryMutAct_9fa48("136") ? `` : (stryCov_9fa48("136"), `${timestamp}.`)).update(body).digest();
  }
}